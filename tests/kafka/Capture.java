// A capture of real Java-client traffic to a real broker, for
// tests/fixtures/capture-4.3.1 (`make capture-fixtures`, tests/kafka/capture.py, which runs the
// broker and the recording proxy between it and the clients).
//
//   java Capture run HOST:PORT   the scenario, with Kafka 4.3.1's own KafkaProducer/KafkaConsumer
//                                bootstrapped at HOST:PORT (the proxy): a transactional producer
//                                (initTransactions; a transaction over both partitions of `txn`
//                                with sendOffsetsToTransaction, committed; a second one, flushed
//                                and aborted), then a read_committed consumer of group
//                                capture-group that fetches both partitions to their end.
//   java Capture json DIR        for every connection DIR/<conn>.c2b.bin (client to broker) and
//                                DIR/<conn>.b2c.bin (broker to client): splits each stream into
//                                its size-prefixed frames and reads them with Kafka's own
//                                RequestHeaderData/ResponseHeaderData and generated
//                                <Api>{Request,Response}Data classes (a response with the api key
//                                and version of the request with its correlation id on that
//                                connection, as NetworkClient does), written as DIR/<conn>.json
//                                through the generated JsonConverters (records as base64 of their
//                                bytes, as Envelopes.java does).
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.ApiMessageType;
import org.apache.kafka.common.message.RequestHeaderData;
import org.apache.kafka.common.message.ResponseHeaderData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;

public final class Capture {
    static final ObjectMapper JSON = new ObjectMapper();

    public static void main(String[] args) throws Exception {
        if (args.length == 2 && args[0].equals("run")) run(args[1]);
        else if (args.length == 2 && args[0].equals("json")) json(Path.of(args[1]));
        else throw new IllegalArgumentException("usage: Capture run HOST:PORT | Capture json DIR");
    }

    /** The producer and consumer settings (PROVENANCE.md lists them from here). */
    static Properties producerConfig(String bootstrap) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "capture-producer");
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "capture-tx");
        p.put(ProducerConfig.LINGER_MS_CONFIG, "100");
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        return p;
    }

    static Properties consumerConfig(String bootstrap) {
        Properties c = new Properties();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        c.put(ConsumerConfig.CLIENT_ID_CONFIG, "capture-consumer");
        c.put(ConsumerConfig.GROUP_ID_CONFIG, "capture-group");
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        return c;
    }

    static void run(String bootstrap) throws Exception {
        TopicPartition p0 = new TopicPartition("txn", 0), p1 = new TopicPartition("txn", 1);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerConfig(bootstrap))) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>("txn", 0, "k0", "committed-0"));
            producer.send(new ProducerRecord<>("txn", 0, "k1", "committed-1"));
            producer.send(new ProducerRecord<>("txn", 1, "k2", "committed-2"));
            // The offsets a consume-transform-produce loop commits with its output: txn-1 at 1.
            producer.sendOffsetsToTransaction(Map.of(p1, new OffsetAndMetadata(1, "capture")), new ConsumerGroupMetadata("capture-group"));
            producer.commitTransaction();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>("txn", 0, "k3", "aborted-3"));
            producer.flush();
            producer.abortTransaction();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>("txn", 0, "k4", "committed-4"));
            producer.commitTransaction();
        }
        // read_committed: txn-0 from ListOffsets(earliest) (no committed offset), txn-1 from the
        // committed offset 1 (OffsetFetch); the aborted record is skipped using the Fetch
        // response's abortedTransactions.
        List<String> got = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerConfig(bootstrap))) {
            consumer.assign(List.of(p0, p1));
            Map<TopicPartition, Long> end = consumer.endOffsets(List.of(p0, p1));
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (consumer.position(p0) < end.get(p0) || consumer.position(p1) < end.get(p1)) {
                if (System.nanoTime() > deadline) throw new IllegalStateException("consumer did not reach " + end);
                ConsumerRecords<String, String> rs = consumer.poll(Duration.ofMillis(200));
                rs.forEach(r -> got.add(r.topic() + "-" + r.partition() + "@" + r.offset() + ":" + r.value()));
            }
        }
        System.out.println(JSON.writeValueAsString(got));
    }

    /** Splits a stream into its int32-size-prefixed frames (without the prefix); fails on a torn one. */
    static List<int[]> frames(byte[] s, String what) {
        List<int[]> out = new ArrayList<>();
        int pos = 0;
        while (pos < s.length) {
            if (pos + 4 > s.length) throw new IllegalStateException(what + ": torn size at " + pos);
            int n = ByteBuffer.wrap(s, pos, 4).getInt();
            if (n < 0 || pos + 4 + n > s.length) throw new IllegalStateException(what + ": frame at " + pos + " of " + n + " byte(s) past the end");
            out.add(new int[]{pos, n});
            pos += 4 + n;
        }
        return out;
    }

    static void json(Path dir) throws Exception {
        List<Path> conns;
        try (Stream<Path> s = Files.list(dir)) {
            conns = s.filter(p -> p.getFileName().toString().endsWith(".c2b.bin")).sorted().toList();
        }
        for (Path c2bPath : conns) {
            String conn = c2bPath.getFileName().toString().replace(".c2b.bin", "");
            byte[] c2b = Files.readAllBytes(c2bPath);
            byte[] b2c = Files.readAllBytes(dir.resolve(conn + ".b2c.bin"));
            ArrayNode all = JSON.createArrayNode();
            Map<Integer, short[]> byCorrelation = new HashMap<>();
            for (int[] f : frames(c2b, conn + ".c2b")) {
                ByteBufferAccessor in = new ByteBufferAccessor(ByteBuffer.wrap(c2b, f[0] + 4, f[1]));
                short key = ByteBuffer.wrap(c2b, f[0] + 4, 2).getShort();
                short version = ByteBuffer.wrap(c2b, f[0] + 6, 2).getShort();
                ApiKeys api = ApiKeys.forId(key);
                short headerVersion = api.requestHeaderVersion(version);
                RequestHeaderData h = new RequestHeaderData();
                h.read(in, headerVersion);
                ApiMessage body = ApiMessageType.fromApiKey(key).newRequest();
                body.read(in, version);
                ObjectNode o = frame("request", f, api, version, headerVersion, h.correlationId(), in, conn);
                o.put("clientId", h.clientId());
                o.set("message", toJson(api, "Request", body, version));
                all.add(o);
                if (byCorrelation.put(h.correlationId(), new short[]{key, version}) != null)
                    throw new IllegalStateException(conn + ": correlation id " + h.correlationId() + " twice");
            }
            for (int[] f : frames(b2c, conn + ".b2c")) {
                ByteBufferAccessor in = new ByteBufferAccessor(ByteBuffer.wrap(b2c, f[0] + 4, f[1]));
                int correlationId = ByteBuffer.wrap(b2c, f[0] + 4, 4).getInt();
                short[] req = byCorrelation.get(correlationId);
                if (req == null) throw new IllegalStateException(conn + ": a response to no request, correlation id " + correlationId);
                ApiKeys api = ApiKeys.forId(req[0]);
                short headerVersion = api.responseHeaderVersion(req[1]);
                new ResponseHeaderData().read(in, headerVersion);
                ApiMessage body = ApiMessageType.fromApiKey(req[0]).newResponse();
                body.read(in, req[1]);
                ObjectNode o = frame("response", f, api, req[1], headerVersion, correlationId, in, conn);
                o.set("message", toJson(api, "Response", body, req[1]));
                all.add(o);
            }
            // One frame per line, compact: the file stays small and diffs frame by frame.
            StringBuilder text = new StringBuilder("[\n");
            for (int i = 0; i < all.size(); i++) text.append(JSON.writeValueAsString(all.get(i))).append(i + 1 < all.size() ? ",\n" : "\n");
            Files.writeString(dir.resolve(conn + ".json"), text.append("]\n").toString(), StandardCharsets.UTF_8);
        }
    }

    static ObjectNode frame(String kind, int[] f, ApiKeys api, short version, short headerVersion, int correlationId, ByteBufferAccessor in, String conn) {
        if (in.remaining() != 0) throw new IllegalStateException(conn + ": " + kind + " at " + f[0] + ": " + in.remaining() + " byte(s) unread");
        ObjectNode o = JSON.createObjectNode();
        o.put("kind", kind);
        o.put("offset", f[0]);
        o.put("size", f[1]);
        o.put("apiKey", api.id);
        o.put("api", api.name);
        o.put("version", version);
        o.put("headerVersion", headerVersion);
        o.put("correlationId", correlationId);
        return o;
    }

    static JsonNode toJson(ApiKeys api, String kind, ApiMessage body, short version) throws Exception {
        JsonNode json = (JsonNode) Probe.converter(api.name + kind + "Data", "write", 3).invoke(null, body, version, true);
        Envelopes.withRecords(body, json);
        return json;
    }
}
