// The request-level harness of the Kafka differential tests (tests/kafka/README.md).
//
// One JVM that speaks Kafka's wire protocol with Kafka's own generated message classes
// (kafka-clients: org.apache.kafka.common.message.*Data and their *JsonConverter twins, made
// from clients/src/main/resources/common/message/*.json). Requests are given as the JSON of
// Kafka's message schema (the same field names as the .json files), at a chosen version; the
// answer comes back as the same JSON, so every field a client could put in a request can be
// chosen and every field of the answer is seen. Why Kafka's classes and not kafka-python's:
// they are the broker's own serializers, for every version 4.x speaks, with no third party's
// reading of the schema in between (kafka-python stays the peer of the byte-level differential).
//
// Protocol: one JSON object per stdin line, one JSON object per stdout line.
//   {"op":"connect","conn":"c1","host":"127.0.0.1","port":9092}
//   {"op":"request","conn":"c1","api":"Produce","version":11,"body":{...}}   -> {"ok":true,"response":{...},"throttle":..}
//   {"op":"send","conn":"c1","api":..,"version":..,"body":..}               -> {"ok":true,"correlationId":N}
//   {"op":"recv","conn":"c1"}                                               -> the oldest outstanding answer on c1
//   {"op":"ready","conn":"c1"}                                              -> {"ready": bytes of an answer have arrived}
//   {"op":"close","conn":"c1"}   (drops the connection and whatever answers were still due on it)
//   {"op":"client", ...}         (the Java-client harness: see Clients.java)
//   {"op":"errors"}              -> {"errors":{"45":"OUT_OF_ORDER_SEQUENCE_NUMBER", ...}} (Errors.java)
// Errors never kill the harness: {"ok":false,"error":"<exception class>: <message>"}.
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.kafka.common.message.ApiMessageType;
import org.apache.kafka.common.message.RequestHeaderData;
import org.apache.kafka.common.message.ResponseHeaderData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.ObjectSerializationCache;

import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

public final class Probe {
    static final ObjectMapper JSON = new ObjectMapper();

    static final class Pending {
        final ApiKeys api; final short version; final int correlationId;
        Pending(ApiKeys api, short version, int correlationId) { this.api = api; this.version = version; this.correlationId = correlationId; }
    }

    static final class Conn {
        final Socket socket; final OutputStream out; final DataInputStream in;
        final ArrayDeque<Pending> pending = new ArrayDeque<>();
        int nextCorrelationId = 1;
        Conn(String host, int port, int timeoutMs) throws IOException {
            socket = new Socket();
            socket.connect(new InetSocketAddress(host, port), timeoutMs);
            socket.setSoTimeout(timeoutMs);
            socket.setTcpNoDelay(true);
            out = socket.getOutputStream();
            in = new DataInputStream(socket.getInputStream());
        }
    }

    final Map<String, Conn> conns = new HashMap<>();
    final Clients clients = new Clients();

    public static void main(String[] args) throws Exception {
        PrintStream stdout = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true, "UTF-8");
        // The client libraries log through slf4j; their chatter must not reach stdout.
        System.setOut(System.err);
        Probe p = new Probe();
        BufferedReader r = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = r.readLine()) != null) {
            if (line.isBlank()) continue;
            ObjectNode answer;
            try {
                answer = p.handle(JSON.readTree(line));
            } catch (Throwable t) {
                answer = JSON.createObjectNode();
                answer.put("ok", false);
                answer.put("error", t.getClass().getName() + ": " + t.getMessage());
            }
            stdout.println(JSON.writeValueAsString(answer));
        }
        p.clients.closeAll();
    }

    ObjectNode handle(JsonNode cmd) throws Exception {
        String op = cmd.path("op").asText();
        ObjectNode a = JSON.createObjectNode();
        switch (op) {
            case "connect": {
                String name = cmd.path("conn").asText("default");
                Conn old = conns.remove(name);
                if (old != null) old.socket.close();
                conns.put(name, new Conn(cmd.path("host").asText("127.0.0.1"), cmd.path("port").asInt(), cmd.path("timeoutMs").asInt(30000)));
                a.put("ok", true);
                return a;
            }
            case "close": {
                Conn c = conns.remove(cmd.path("conn").asText("default"));
                if (c != null) c.socket.close();
                a.put("ok", true);
                return a;
            }
            case "request": {
                Conn c = conn(cmd);
                Pending p = send(c, cmd);
                return recv(c, p);
            }
            case "send": {
                Conn c = conn(cmd);
                Pending p = send(c, cmd);
                c.pending.add(p);
                a.put("ok", true);
                a.put("correlationId", p.correlationId);
                return a;
            }
            case "ready": {
                // Has an answer (or part of one) arrived on the connection? Never blocks: a test
                // tells an answer the broker holds (acks=-1 waiting for the high watermark) from
                // one it has sent.
                Conn c = conn(cmd);
                a.put("ok", true);
                a.put("ready", c.in.available() > 0);
                a.put("outstanding", c.pending.size());
                return a;
            }
            case "recv": {
                Conn c = conn(cmd);
                Pending p = c.pending.poll();
                if (p == null) throw new IllegalStateException("no request outstanding on " + cmd.path("conn").asText("default"));
                return recv(c, p);
            }
            case "client":
                return clients.handle(cmd);
            case "errors": {
                // Kafka's error codes by number, with their names (Errors.java).
                ObjectNode names = a.putObject("errors");
                for (org.apache.kafka.common.protocol.Errors e : org.apache.kafka.common.protocol.Errors.values())
                    names.put(String.valueOf(e.code()), e.name());
                a.put("ok", true);
                return a;
            }
            default:
                throw new IllegalArgumentException("unknown op '" + op + "'");
        }
    }

    Conn conn(JsonNode cmd) {
        String name = cmd.path("conn").asText("default");
        Conn c = conns.get(name);
        if (c == null) throw new IllegalStateException("no connection '" + name + "' (connect first)");
        return c;
    }

    static ApiKeys apiKey(String name) {
        for (ApiKeys k : ApiKeys.values()) if (k.name.equals(name)) return k;
        throw new IllegalArgumentException("unknown api '" + name + "'");
    }

    static Method converter(String messageName, String method, int arity) throws ClassNotFoundException {
        Class<?> cls = Class.forName("org.apache.kafka.common.message." + messageName + "JsonConverter");
        for (Method m : cls.getMethods())
            if (m.getName().equals(method) && m.getParameterCount() == arity) return m;
        throw new IllegalStateException(messageName + "JsonConverter has no " + method + "/" + arity);
    }

    Pending send(Conn c, JsonNode cmd) throws Exception {
        ApiKeys api = apiKey(cmd.path("api").asText());
        short version = (short) cmd.path("version").asInt(api.latestVersion());
        if (!api.isVersionSupported(version) && !cmd.path("anyVersion").asBoolean(false))
            throw new IllegalArgumentException(api.name + " v" + version + " is not a version this Kafka speaks (" + api.oldestVersion() + ".." + api.latestVersion() + ")");
        ApiMessage body = (ApiMessage) converter(api.name + "RequestData", "read", 2).invoke(null, cmd.path("body"), version);
        int correlationId = c.nextCorrelationId++;
        RequestHeaderData header = new RequestHeaderData()
                .setRequestApiKey(api.id).setRequestApiVersion(version)
                .setClientId(cmd.path("clientId").asText("eoslab-probe")).setCorrelationId(correlationId);
        short headerVersion = api.requestHeaderVersion(version);
        ObjectSerializationCache cache = new ObjectSerializationCache();
        int size = header.size(cache, headerVersion) + body.size(cache, version);
        ByteBuffer buf = ByteBuffer.allocate(4 + size);
        buf.putInt(size);
        ByteBufferAccessor acc = new ByteBufferAccessor(buf);
        header.write(acc, cache, headerVersion);
        body.write(acc, cache, version);
        c.out.write(buf.array());
        c.out.flush();
        return new Pending(api, version, correlationId);
    }

    /**
     * The generated JSON converters write a records field as an empty binary (they exist for
     * request logging, which never prints records): put the bytes in, base64 as they read them.
     * Walks the message and its JSON side by side (a JSON key is its field's accessor name).
     */
    static void withRecords(Object msg, JsonNode json) throws Exception {
        if (!(json instanceof ObjectNode)) return;
        for (Method m : msg.getClass().getMethods()) {
            if (m.getParameterCount() != 0 || !json.has(m.getName())) continue;
            if (m.getReturnType().getSimpleName().equals("BaseRecords")) {
                // org.apache.kafka.common.record (4.1) or ….record.internal (4.3): by name.
                Object r = m.invoke(msg);
                if (r != null && r.getClass().getSimpleName().equals("MemoryRecords")) {
                    ByteBuffer b = ((ByteBuffer) r.getClass().getMethod("buffer").invoke(r)).duplicate();
                    byte[] bytes = new byte[b.remaining()];
                    b.get(bytes);
                    ((ObjectNode) json).put(m.getName(), java.util.Base64.getEncoder().encodeToString(bytes));
                }
            } else if (java.util.List.class.isAssignableFrom(m.getReturnType())) {
                Object list = m.invoke(msg);
                JsonNode arr = json.get(m.getName());
                if (!(list instanceof java.util.List) || !arr.isArray()) continue;
                java.util.List<?> l = (java.util.List<?>) list;
                for (int i = 0; i < l.size() && i < arr.size(); i++)
                    if (l.get(i) instanceof org.apache.kafka.common.protocol.Message) withRecords(l.get(i), arr.get(i));
            }
        }
    }

    ObjectNode recv(Conn c, Pending p) throws Exception {
        int size = c.in.readInt();
        byte[] bytes = new byte[size];
        c.in.readFully(bytes);
        ByteBuffer buf = ByteBuffer.wrap(bytes);
        ByteBufferAccessor acc = new ByteBufferAccessor(buf);
        ResponseHeaderData rh = new ResponseHeaderData();
        rh.read(acc, p.api.responseHeaderVersion(p.version));
        if (rh.correlationId() != p.correlationId)
            throw new IllegalStateException("correlation id " + rh.correlationId() + " answers, " + p.correlationId + " expected");
        ApiMessage data = ApiMessageType.fromApiKey(p.api.id).newResponse();
        data.read(acc, p.version);
        JsonNode json = (JsonNode) converter(p.api.name + "ResponseData", "write", 3).invoke(null, data, p.version, true);
        withRecords(data, json);
        ObjectNode a = JSON.createObjectNode();
        a.put("ok", true);
        a.put("api", p.api.name);
        a.put("version", p.version);
        a.put("correlationId", p.correlationId);
        a.set("response", json);
        return a;
    }
}
