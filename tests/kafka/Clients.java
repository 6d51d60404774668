// The Java-client harness of the Kafka differential tests: KafkaProducer / KafkaConsumer from
// kafka-clients (the same jars as the broker), driven by {"op":"client", ...} lines of Probe.
//
//   {"op":"client","action":"producer","name":"p","config":{"transactional.id":"t", ...}}
//   {"op":"client","action":"init"|"begin"|"commit"|"abort"|"close"|"flush","name":"p"}
//   {"op":"client","action":"send","name":"p","topic":"t","partition":0,"value":"v","key":null}
//   {"op":"client","action":"send-async","name":"p","topic":"t","partition":0,"value":"v","key":null,"headers":{"h":"x"}}
//   {"op":"client","action":"send-offsets","name":"p","consumer":"c"}
//   {"op":"client","action":"consumer","name":"c","config":{...},"assign":[["t",0]],"from":"beginning"|"committed"}
//   {"op":"client","action":"poll","name":"c","quietMs":300,"maxMs":5000}
//   {"op":"client","action":"state","name":"p"}
// Every answer says what the call threw ("threw": {"class","message","cause"}) or null, and
// for producers the TransactionManager's state ("state", read by reflection: the Java client
// does not expose it; "unobservable" when a future client renames the field).
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.lang.reflect.Field;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

final class Clients {
    final Map<String, KafkaProducer<String, String>> producers = new HashMap<>();
    final Map<String, KafkaConsumer<String, String>> consumers = new HashMap<>();

    ObjectNode handle(JsonNode cmd) throws Exception {
        String action = cmd.path("action").asText();
        String name = cmd.path("name").asText();
        ObjectNode a = Probe.JSON.createObjectNode();
        a.put("ok", true);
        Throwable threw = null;
        try {
            switch (action) {
                case "producer": {
                    Properties p = props(cmd.path("config"));
                    p.putIfAbsent("key.serializer", StringSerializer.class.getName());
                    p.putIfAbsent("value.serializer", StringSerializer.class.getName());
                    producers.put(name, new KafkaProducer<>(p));
                    break;
                }
                case "consumer": {
                    Properties p = props(cmd.path("config"));
                    p.putIfAbsent("key.deserializer", StringDeserializer.class.getName());
                    p.putIfAbsent("value.deserializer", StringDeserializer.class.getName());
                    p.putIfAbsent("enable.auto.commit", "false");
                    KafkaConsumer<String, String> c = new KafkaConsumer<>(p);
                    List<TopicPartition> tps = new ArrayList<>();
                    for (JsonNode tp : cmd.path("assign")) tps.add(new TopicPartition(tp.get(0).asText(), tp.get(1).asInt()));
                    c.assign(tps);
                    if ("committed".equals(cmd.path("from").asText("beginning"))) {
                        seekCommitted(c);
                    } else {
                        c.seekToBeginning(tps);
                    }
                    consumers.put(name, c);
                    break;
                }
                case "init": producer(name).initTransactions(); break;
                case "begin": producer(name).beginTransaction(); break;
                case "commit": producer(name).commitTransaction(); break;
                case "abort": producer(name).abortTransaction(); break;
                case "flush": producer(name).flush(); break;
                case "close": {
                    KafkaProducer<String, String> p = producers.remove(name);
                    if (p != null) p.close(Duration.ofMillis(cmd.path("timeoutMs").asLong(5000)));
                    KafkaConsumer<String, String> c = consumers.remove(name);
                    if (c != null) c.close(Duration.ofMillis(cmd.path("timeoutMs").asLong(5000)));
                    break;
                }
                case "send": {
                    ProducerRecord<String, String> r = new ProducerRecord<>(cmd.path("topic").asText(),
                            cmd.path("partition").asInt(), text(cmd.path("key")), text(cmd.path("value")));
                    try {
                        RecordMetadata m = producer(name).send(r).get(cmd.path("timeoutMs").asLong(30000), TimeUnit.MILLISECONDS);
                        a.put("offset", m.offset());
                    } catch (ExecutionException e) {
                        // The future failed: the call that sees it is get(), as an application's would.
                        threw = e.getCause();
                        a.put("failedFuture", true);
                    }
                    break;
                }
                case "send-async": {
                    // Appends to the accumulator without waiting, so that several records share a
                    // batch (linger.ms, then "flush"); "headers": {"k": "v"} adds record headers.
                    ProducerRecord<String, String> r = new ProducerRecord<>(cmd.path("topic").asText(),
                            cmd.path("partition").asInt(), text(cmd.path("key")), text(cmd.path("value")));
                    for (Iterator<Map.Entry<String, JsonNode>> it = cmd.path("headers").fields(); it.hasNext(); ) {
                        Map.Entry<String, JsonNode> h = it.next();
                        r.headers().add(h.getKey(), h.getValue().isNull() ? null
                                : h.getValue().asText().getBytes(java.nio.charset.StandardCharsets.UTF_8));
                    }
                    producer(name).send(r);
                    break;
                }
                case "send-offsets": {
                    KafkaConsumer<String, String> c = consumer(cmd.path("consumer").asText());
                    Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
                    for (TopicPartition tp : c.assignment()) offsets.put(tp, new OffsetAndMetadata(c.position(tp)));
                    producer(name).sendOffsetsToTransaction(offsets, c.groupMetadata());
                    break;
                }
                case "poll": {
                    KafkaConsumer<String, String> c = consumer(name);
                    long quiet = cmd.path("quietMs").asLong(300), max = cmd.path("maxMs").asLong(5000);
                    long start = System.nanoTime(), lastNew = start;
                    ArrayNode recs = a.putArray("records");
                    while (true) {
                        ConsumerRecords<String, String> rs = c.poll(Duration.ofMillis(50));
                        long now = System.nanoTime();
                        if (!rs.isEmpty()) lastNew = now;
                        for (ConsumerRecord<String, String> r : rs) {
                            ObjectNode o = recs.addObject();
                            o.put("topic", r.topic()); o.put("partition", r.partition()); o.put("offset", r.offset());
                            o.put("value", r.value());
                        }
                        if ((now - lastNew) / 1_000_000 >= quiet || (now - start) / 1_000_000 >= max) break;
                    }
                    ObjectNode pos = a.putObject("positions");
                    for (TopicPartition tp : c.assignment()) pos.put(tp.toString(), c.position(tp));
                    break;
                }
                case "seek-committed": seekCommitted(consumer(name)); break;
                case "state": break;
                default: throw new IllegalArgumentException("unknown client action '" + action + "'");
            }
        } catch (IllegalArgumentException | IllegalStateException e) {
            if (e.getStackTrace().length > 0 && e.getStackTrace()[0].getClassName().equals(Clients.class.getName())) throw e;
            threw = e;
        } catch (RuntimeException e) {
            threw = e;
        }
        if (threw != null) {
            ObjectNode t = a.putObject("threw");
            t.put("class", threw.getClass().getName());
            t.put("message", threw.getMessage());
            if (threw.getCause() != null) t.put("cause", threw.getCause().getClass().getName());
        } else {
            a.putNull("threw");
        }
        KafkaProducer<String, String> p = producers.get(name);
        if (p != null) a.put("state", transactionState(p));
        return a;
    }

    static void seekCommitted(KafkaConsumer<String, String> c) {
        Map<TopicPartition, OffsetAndMetadata> committed = c.committed(c.assignment());
        for (TopicPartition tp : c.assignment()) {
            OffsetAndMetadata om = committed.get(tp);
            if (om != null) c.seek(tp, om.offset()); else c.seekToBeginning(List.of(tp));
        }
    }

    KafkaProducer<String, String> producer(String name) {
        KafkaProducer<String, String> p = producers.get(name);
        if (p == null) throw new IllegalArgumentException("no producer '" + name + "'");
        return p;
    }

    KafkaConsumer<String, String> consumer(String name) {
        KafkaConsumer<String, String> c = consumers.get(name);
        if (c == null) throw new IllegalArgumentException("no consumer '" + name + "'");
        return c;
    }

    static String text(JsonNode n) { return n.isMissingNode() || n.isNull() ? null : n.asText(); }

    static Properties props(JsonNode config) {
        Properties p = new Properties();
        for (Iterator<Map.Entry<String, JsonNode>> it = config.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            p.put(e.getKey(), e.getValue().asText());
        }
        return p;
    }

    /** TransactionManager.currentState, by reflection (KafkaProducer.transactionManager). */
    static String transactionState(KafkaProducer<?, ?> p) {
        try {
            Field tmf = KafkaProducer.class.getDeclaredField("transactionManager");
            tmf.setAccessible(true);
            Object tm = tmf.get(p);
            if (tm == null) return "NONE";
            Field sf = tm.getClass().getDeclaredField("currentState");
            sf.setAccessible(true);
            return String.valueOf(sf.get(tm));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return "unobservable";
        }
    }

    void closeAll() {
        for (KafkaProducer<String, String> p : producers.values()) p.close(Duration.ofSeconds(2));
        for (KafkaConsumer<String, String> c : consumers.values()) c.close(Duration.ofSeconds(2));
    }
}
