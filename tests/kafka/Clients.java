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
//   {"op":"client","action":"consumer","name":"c","config":{"group.id":"g",...},"subscribe":["t"]}
//                                          (a group member: the classic protocol joins at the first poll)
//   {"op":"client","action":"poll","name":"c","untilEnd":true,"maxMs":10000}
//                                          (poll until every position reached endOffsets: LSO or HW)
//   {"op":"client","action":"rebalance","name":"c"}  (enforceRebalance(), poll until the generation
//                                          moves on; the application's groupMetadata() stays the one of
//                                          its last poll, as for records being processed; records are dropped)
//   {"op":"client","action":"crash","name":"p"}      (close(Duration.ZERO): nothing more is sent or read)
//   any action with "async":true runs on the client's own thread and answers {"pending":true};
//   {"op":"client","action":"await","name":"p","timeoutMs":5000} answers that call's result, or
//   {"pending":true} when it has not returned yet.
// Producer answers also carry pid/epoch, lastError and pendingOperation (TransactionManager, by
// reflection); consumer answers carry positions and the group generation.
// Every answer says what the call threw ("threw": {"class","message","cause"}) or null, and
// for producers the TransactionManager's state ("state", read by reflection: the Java client
// does not expose it; "unobservable" when a future client renames the field).
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.TimeUnit;

final class Clients {
    final Map<String, KafkaProducer<String, String>> producers = new ConcurrentHashMap<>();
    final Map<String, KafkaConsumer<String, String>> consumers = new ConcurrentHashMap<>();
    /** The group metadata as of each subscribed consumer's last poll (what the application holds). */
    final Map<String, ConsumerGroupMetadata> polledGroup = new ConcurrentHashMap<>();
    final Map<String, ExecutorService> threads = new ConcurrentHashMap<>();
    final Map<String, Future<ObjectNode>> asyncCalls = new ConcurrentHashMap<>();

    ObjectNode handle(JsonNode cmd) throws Exception {
        String action = cmd.path("action").asText();
        String name = cmd.path("name").asText();
        if (cmd.path("async").asBoolean(false)) {
            ObjectNode sync = cmd.deepCopy();
            sync.remove("async");
            ExecutorService ex = threads.computeIfAbsent(name, k -> Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "client-" + k);
                t.setDaemon(true);
                return t;
            }));
            asyncCalls.put(name, ex.submit(() -> handle(sync)));
            ObjectNode a = Probe.JSON.createObjectNode();
            a.put("ok", true);
            a.put("pending", true);
            describe(a, name);
            return a;
        }
        if ("await".equals(action)) {
            Future<ObjectNode> f = asyncCalls.get(name);
            if (f == null) {
                ObjectNode idle = Probe.JSON.createObjectNode();
                idle.put("ok", true);
                idle.put("pending", false);
                idle.put("idle", true);
                describe(idle, name);
                return idle;
            }
            try {
                ObjectNode r = f.get(cmd.path("timeoutMs").asLong(5000), TimeUnit.MILLISECONDS);
                asyncCalls.remove(name);
                r.put("pending", false);
                describe(r, name);
                return r;
            } catch (TimeoutException e) {
                ObjectNode a = Probe.JSON.createObjectNode();
                a.put("ok", true);
                a.put("pending", true);
                describe(a, name);
                return a;
            }
        }
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
                    if (cmd.has("subscribe")) {
                        List<String> topics = new ArrayList<>();
                        for (JsonNode t : cmd.path("subscribe")) topics.add(t.asText());
                        c.subscribe(topics);
                    } else {
                        c.assign(tps);
                        if ("committed".equals(cmd.path("from").asText("beginning"))) {
                            seekCommitted(c);
                        } else {
                            c.seekToBeginning(tps);
                        }
                    }
                    consumers.put(name, c);
                    break;
                }
                case "init": producer(name).initTransactions(); break;
                case "begin": producer(name).beginTransaction(); break;
                case "commit": producer(name).commitTransaction(); break;
                case "abort": producer(name).abortTransaction(); break;
                case "flush": producer(name).flush(); break;
                case "crash": {
                    KafkaProducer<String, String> p = producers.get(name);
                    if (p != null) p.close(Duration.ZERO);
                    break;
                }
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
                        // send() does not block (an application goes on while the batch is in flight);
                        // the answer waits up to timeoutMs for the future, then says "sendPending".
                        Future<RecordMetadata> f = producer(name).send(r);
                        RecordMetadata m = f.get(cmd.path("timeoutMs").asLong(30000), TimeUnit.MILLISECONDS);
                        a.put("offset", m.offset());
                    } catch (TimeoutException e) {
                        a.put("sendPending", true);
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
                    ConsumerGroupMetadata gm = polledGroup.getOrDefault(cmd.path("consumer").asText(), c.groupMetadata());
                    a.put("generation", gm.generationId());
                    producer(name).sendOffsetsToTransaction(offsets, gm);
                    break;
                }
                case "poll": {
                    KafkaConsumer<String, String> c = consumer(name);
                    long quiet = cmd.path("quietMs").asLong(300), max = cmd.path("maxMs").asLong(5000);
                    long start = System.nanoTime(), lastNew = start;
                    boolean untilEnd = cmd.path("untilEnd").asBoolean(false);
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
                        if (untilEnd && rs.isEmpty() && !c.assignment().isEmpty()) {
                            Map<TopicPartition, Long> end = c.endOffsets(c.assignment());
                            boolean done = true;
                            for (TopicPartition tp : c.assignment()) if (c.position(tp) < end.get(tp)) done = false;
                            if (done) {
                                break;
                            }
                        }
                        if ((now - start) / 1_000_000 >= max) { a.put("timedOut", true); break; }
                        if (!untilEnd && (now - lastNew) / 1_000_000 >= quiet) break;
                    }
                    if (!c.subscription().isEmpty()) polledGroup.put(name, c.groupMetadata());
                    break;
                }
                case "rebalance": {
                    KafkaConsumer<String, String> c = consumer(name);
                    int before = c.groupMetadata().generationId();
                    c.enforceRebalance("eoslab rebalance step");
                    long start = System.nanoTime();
                    int dropped = 0;
                    while (c.groupMetadata().generationId() <= before && (System.nanoTime() - start) / 1_000_000 < cmd.path("maxMs").asLong(15000))
                        dropped += c.poll(Duration.ofMillis(50)).count();
                    a.put("dropped", dropped);
                    a.put("generationBefore", before);
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
            ArrayNode supers = t.putArray("classes");
            for (Class<?> k = threw.getClass(); k != null && k != Object.class; k = k.getSuperclass()) supers.add(k.getSimpleName());
        } else {
            a.putNull("threw");
        }
        describe(a, name);
        return a;
    }

    void describe(ObjectNode a, String name) {
        KafkaProducer<String, String> p = producers.get(name);
        if (p != null) {
            a.put("state", transactionState(p));
            try {
                Object tm = field(p, KafkaProducer.class, "transactionManager");
                if (tm != null) {
                    Object pe = field(tm, tm.getClass(), "producerIdAndEpoch");
                    if (pe != null) {
                        a.put("pid", (Long) field(pe, pe.getClass(), "producerId"));
                        a.put("epoch", (Short) field(pe, pe.getClass(), "epoch"));
                    }
                    Object err = field(tm, tm.getClass(), "lastError");
                    if (err != null) {
                        Throwable t = (Throwable) err;
                        ObjectNode e = a.putObject("lastError");
                        e.put("class", t.getClass().getName());
                        e.put("message", t.getMessage());
                        if (t.getCause() != null) e.put("cause", t.getCause().getClass().getName());
                        ArrayNode supers = e.putArray("classes");
                        for (Class<?> k = t.getClass(); k != null && k != Object.class; k = k.getSuperclass()) supers.add(k.getSimpleName());
                    }
                    Object pt = field(tm, tm.getClass(), "pendingTransition");
                    if (pt != null) {
                        a.put("pendingOperation", String.valueOf(field(pt, pt.getClass(), "operation")));
                        Object res = field(pt, pt.getClass(), "result");
                        java.lang.reflect.Method done = res.getClass().getMethod("isCompleted");
                        done.setAccessible(true);
                        a.put("pendingCompleted", (Boolean) done.invoke(res));
                    }
                    a.put("transactionV2", (Boolean) field(tm, tm.getClass(), "isTransactionV2Enabled"));
                }
            } catch (ReflectiveOperationException | RuntimeException e) {
                a.put("reflection", String.valueOf(e));
            }
        }
        KafkaConsumer<String, String> c = consumers.get(name);
        if (c != null) {
            try {
                ObjectNode pos = a.putObject("positions");
                for (TopicPartition tp : c.assignment()) pos.put(tp.toString(), c.position(tp, Duration.ofSeconds(5)));
                if (!c.subscription().isEmpty()) a.put("generation", c.groupMetadata().generationId());
            } catch (RuntimeException e) {
                a.put("positionsError", String.valueOf(e));
            }
        }
    }

    static Object field(Object o, Class<?> cls, String name) throws ReflectiveOperationException {
        Field f = cls.getDeclaredField(name);
        f.setAccessible(true);
        return f.get(o);
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
