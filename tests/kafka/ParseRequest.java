// Kafka's own request parsing, as the broker runs it on one received frame, for
// tests/kafka/envelope_mutations.py: one hex string per line on standard input (a whole frame,
// int32 size prefix first), one JSON object per line on standard output.
//
// The steps are the broker's (Kafka 4.3.1):
//   1. NetworkReceive.readFrom: the int32 size; a negative size is
//      `InvalidReceiveException: Invalid receive (size = N)` and one past socket.request.max.bytes
//      (default 104857600) `Invalid receive (size = N larger than M)`; a frame shorter than its
//      size is not an error there, the broker waits for the rest ("incomplete").
//   2. SocketServer.parseRequestHeader -> RequestHeader.parse(payload).
//   3. RequestChannel.Request -> RequestContext.parseRequest(payload) ->
//      AbstractRequest.parseRequest(apiKey, apiVersion, payload).
// (SocketServer's apiVersionManager.isApiEnabled check between 2 and 3 is reported as
// `enabled`, not applied: it depends on the broker's configuration, not on the bytes.)
//
// Output: {"stage": "size"|"header"|"body"|"ok"|"incomplete", "at": <absolute byte offset of the
// payload's position when the exception was thrown, size prefix included>, "chain":
// [[class simple name, message], ... the exception and its causes], "remaining": bytes left
// after a successful parse, "apiKey", "apiVersion"}.
import org.apache.kafka.common.network.ClientInformation;
import org.apache.kafka.common.network.ListenerName;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.RequestContext;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.auth.SecurityProtocol;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.HexFormat;

public final class ParseRequest {
    static final int MAX_RECEIVE = 104857600; // socket.request.max.bytes' default

    static String str(String s) {
        if (s == null) return "null";
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') b.append('\\').append(c);
            else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
            else b.append(c);
        }
        return b.append('"').toString();
    }

    static String chain(Throwable t) {
        StringBuilder b = new StringBuilder("[");
        for (Throwable e = t; e != null; e = e.getCause()) {
            if (e != t) b.append(',');
            b.append('[').append(str(e.getClass().getSimpleName())).append(',').append(str(e.getMessage())).append(']');
            if (e.getCause() == e) break;
        }
        return b.append(']').toString();
    }

    static String fail(String stage, int at, Throwable t) {
        return "{\"stage\":" + str(stage) + ",\"at\":" + at + ",\"chain\":" + chain(t) + "}";
    }

    static String parse(byte[] b) {
        if (b.length < 4) return "{\"stage\":\"incomplete\",\"at\":0}";
        int size = ByteBuffer.wrap(b).getInt();
        if (size < 0)
            return "{\"stage\":\"size\",\"at\":0,\"chain\":[[\"InvalidReceiveException\"," + str("Invalid receive (size = " + size + ")") + "]]}";
        if (size > MAX_RECEIVE)
            return "{\"stage\":\"size\",\"at\":0,\"chain\":[[\"InvalidReceiveException\","
                + str("Invalid receive (size = " + size + " larger than " + MAX_RECEIVE + ")") + "]]}";
        if (b.length - 4 < size) return "{\"stage\":\"incomplete\",\"at\":0}";
        ByteBuffer payload = ByteBuffer.wrap(b, 4, size).slice();
        RequestHeader h;
        try {
            h = RequestHeader.parse(payload);
        } catch (Throwable t) {
            return fail("header", 4 + payload.position(), t);
        }
        String key = ",\"apiKey\":" + h.apiKey().id + ",\"apiVersion\":" + h.apiVersion()
            + ",\"enabled\":" + h.apiKey().isVersionSupported(h.apiVersion())
            + ",\"oldest\":" + h.apiKey().oldestVersion();
        RequestContext ctx = new RequestContext(h, "conn", InetAddress.getLoopbackAddress(), KafkaPrincipal.ANONYMOUS,
            ListenerName.forSecurityProtocol(SecurityProtocol.PLAINTEXT), SecurityProtocol.PLAINTEXT,
            ClientInformation.EMPTY, false);
        try {
            ctx.parseRequest(payload);
        } catch (Throwable t) {
            String f = fail("body", 4 + payload.position(), t);
            return f.substring(0, f.length() - 1) + key + "}";
        }
        return "{\"stage\":\"ok\",\"at\":" + (4 + payload.position()) + ",\"remaining\":" + payload.remaining() + key + "}";
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String line;
        while ((line = in.readLine()) != null) {
            line = line.trim();
            if (line.isEmpty()) continue;
            System.out.println(parse(HexFormat.of().parseHex(line)));
            System.out.flush();
        }
    }
}
