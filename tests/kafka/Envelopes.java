// Golden request/response envelopes written by Kafka's own serializers: for every entry
// of tests/kafka/envelopes.json, the body is read with Kafka's generated <Api>{Request,Response}DataJsonConverter
// at the given version, framed as the Java client and the broker frame it (int32 size, then
// RequestHeaderData/ResponseHeaderData at ApiKeys.{request,response}HeaderVersion, then the body), and
// written to <out>/<name>.hex; <out>/<name>.json holds what Kafka reads back from those bytes (the
// header fields and the body through the same JsonConverter, records as base64), which
// crate/core/tests/envelopes.rs compares field by field with eoslab's decode.
// A string "@file:<path>" in a body is replaced by the base64 of that file (records from the broker
// fixtures). No broker needed: `make envelope-fixtures`.
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import org.apache.kafka.common.message.ApiMessageType;
import org.apache.kafka.common.message.RequestHeaderData;
import org.apache.kafka.common.message.ResponseHeaderData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.ObjectSerializationCache;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

public final class Envelopes {
    static final ObjectMapper JSON = new ObjectMapper();

    static JsonNode resolveFiles(JsonNode n, Path root) throws Exception {
        if (n.isTextual() && n.asText().startsWith("@file:"))
            return new TextNode(Base64.getEncoder().encodeToString(Files.readAllBytes(root.resolve(n.asText().substring(6)))));
        if (n.isObject()) {
            ObjectNode o = (ObjectNode) n;
            for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                o.set(e.getKey(), resolveFiles(e.getValue(), root));
            }
        } else if (n.isArray()) {
            ArrayNode a = (ArrayNode) n;
            for (int i = 0; i < a.size(); i++) a.set(i, resolveFiles(a.get(i), root));
        }
        return n;
    }

    /**
     * Probe.withRecords for any collection (the generated *Collection types of keyed arrays are not
     * java.util.List): records as base64 of their bytes, which the converters leave empty.
     */
    static void withRecords(Object msg, JsonNode json) throws Exception {
        if (!(json instanceof ObjectNode)) return;
        for (java.lang.reflect.Method m : msg.getClass().getMethods()) {
            if (m.getParameterCount() != 0 || !json.has(m.getName())) continue;
            if (m.getReturnType().getSimpleName().equals("BaseRecords")) {
                Object r = m.invoke(msg);
                if (r != null && r.getClass().getSimpleName().equals("MemoryRecords")) {
                    ByteBuffer b = ((ByteBuffer) r.getClass().getMethod("buffer").invoke(r)).duplicate();
                    byte[] bytes = new byte[b.remaining()];
                    b.get(bytes);
                    ((ObjectNode) json).put(m.getName(), Base64.getEncoder().encodeToString(bytes));
                }
            } else if (java.util.Collection.class.isAssignableFrom(m.getReturnType())) {
                Object coll = m.invoke(msg);
                JsonNode arr = json.get(m.getName());
                if (!(coll instanceof java.util.Collection) || !arr.isArray()) continue;
                int i = 0;
                for (Object el : (java.util.Collection<?>) coll) {
                    if (i >= arr.size()) break;
                    if (el instanceof org.apache.kafka.common.protocol.Message) withRecords(el, arr.get(i));
                    i++;
                }
            }
        }
    }

    /** Kafka's message schemas as kafka-clients ships them (common/message/*.json, with comments). */
    static final ObjectMapper SCHEMA = new ObjectMapper().enable(com.fasterxml.jackson.core.JsonParser.Feature.ALLOW_COMMENTS);

    /** `Versions.parse`: "none", "N", "N+", "N-M". */
    static boolean inVersions(String spec, short v) {
        if (spec == null || spec.equals("none")) return false;
        if (spec.endsWith("+")) return v >= Short.parseShort(spec.substring(0, spec.length() - 1));
        int dash = spec.indexOf('-');
        if (dash < 0) return v == Short.parseShort(spec);
        return v >= Short.parseShort(spec.substring(0, dash)) && v <= Short.parseShort(spec.substring(dash + 1));
    }

    /**
     * Keeps only the fields `version` has (the field's "versions" in Kafka's schema), in every
     * struct: a field a version lacks must not be set (its writer would refuse a non-default
     * value). A key that is no field of the schema is an error (a typo in envelopes.json).
     */
    static void prune(ObjectNode body, JsonNode fields, Map<String, JsonNode> common, short version, String where) {
        List<String> keys = new java.util.ArrayList<>();
        body.fieldNames().forEachRemaining(keys::add);
        for (String key : keys) {
            JsonNode field = null;
            for (JsonNode f : fields) {
                String n = f.path("name").asText();
                if ((Character.toLowerCase(n.charAt(0)) + n.substring(1)).equals(key)) field = f;
            }
            if (field == null) throw new IllegalArgumentException(where + ": no field " + key + " in the schema");
            if (!inVersions(field.path("versions").asText(), version)) {
                body.remove(key);
                continue;
            }
            String type = field.path("type").asText();
            JsonNode sub = field.has("fields") ? field.get("fields") : common.get(type.startsWith("[]") ? type.substring(2) : type);
            if (sub == null) continue;
            JsonNode val = body.get(key);
            if (val instanceof ObjectNode) prune((ObjectNode) val, sub, common, version, where + "." + key);
            else if (val instanceof ArrayNode) for (JsonNode el : val) if (el instanceof ObjectNode) prune((ObjectNode) el, sub, common, version, where + "." + key + "[]");
        }
    }

    /** `body` at `version`, pruned by Kafka's own schema of `<Api><Kind>` (from the jar). */
    static ObjectNode atVersion(ApiKeys api, String kind, JsonNode body, short version) throws Exception {
        String file = "common/message/" + api.name + kind + ".json";
        JsonNode schema;
        try (java.io.InputStream in = Envelopes.class.getClassLoader().getResourceAsStream(file)) {
            if (in == null) throw new IllegalStateException(file + " not in the classpath");
            schema = SCHEMA.readTree(in);
        }
        Map<String, JsonNode> common = new java.util.HashMap<>();
        for (JsonNode c : schema.path("commonStructs")) common.put(c.path("name").asText(), c.path("fields"));
        ObjectNode copy = body.deepCopy();
        prune(copy, schema.path("fields"), common, version, api.name + kind + " v" + version);
        return copy;
    }

    public static void main(String[] args) throws Exception {
        Path spec = Path.of(args[0]);
        Path out = Path.of(args[1]);
        Files.createDirectories(out);
        JsonNode entries = JSON.readTree(spec.toFile());
        Map<String, Integer> named = new java.util.HashMap<>();
        for (JsonNode v : entries) if (v.has("name")) named.put(v.path("name").asText(), v.path("correlationId").asInt());
        for (JsonNode v : entries) {
            ApiKeys api = Probe.apiKey(v.path("api").asText());
            boolean request = v.path("kind").asText().equals("request");
            if (!v.has("versions")) {
                write(out, v.path("name").asText(), request, api, (short) v.path("version").asInt(), v.path("correlationId").asInt(),
                        v.path("clientId").asText("eoslab-golden"), v.path("body"));
                continue;
            }
            // {"prefix":"fetch","kind":..,"api":..,"versions":"all","body":{every field of every version}}:
            // one message per version Kafka 4.3.1 reads (ApiKeys.oldestVersion..latestVersion), the body
            // pruned to that version's fields, unless an entry of that name is written by hand above.
            short lo = api.oldestVersion(), hi = api.latestVersion(true);
            if (!v.path("versions").asText().equals("all")) throw new IllegalArgumentException("versions: \"all\" only");
            for (short ver = lo; ver <= hi; ver++) {
                String name = v.path("prefix").asText() + "-v" + ver + "-" + (request ? "request" : "response");
                if (named.containsKey(name)) continue;
                // The correlation id of a hand-written request or response of the same version, so
                // the two still pair; else one per api and version.
                String sibling = v.path("prefix").asText() + "-v" + ver + "-" + (request ? "response" : "request");
                int correlationId = named.getOrDefault(sibling, 1000 + 20 * api.id + ver);
                ObjectNode body = atVersion(api, request ? "Request" : "Response", v.path("body"), ver);
                write(out, name, request, api, ver, correlationId, v.path("clientId").asText("eoslab-golden"), body);
            }
        }
    }

    static void write(Path out, String name, boolean request, ApiKeys api, short version, int correlationId, String clientId, JsonNode spec) throws Exception {
        {
            Path root = Path.of(".");
            String kind = request ? "Request" : "Response";
            JsonNode body = resolveFiles(spec.deepCopy(), root);
            ApiMessage msg = (ApiMessage) Probe.converter(api.name + kind + "Data", "read", 2).invoke(null, body, version);
            ObjectSerializationCache cache = new ObjectSerializationCache();
            ApiMessage header;
            short headerVersion;
            if (request) {
                header = new RequestHeaderData().setRequestApiKey(api.id).setRequestApiVersion(version)
                        .setClientId(clientId).setCorrelationId(correlationId);
                headerVersion = api.requestHeaderVersion(version);
            } else {
                header = new ResponseHeaderData().setCorrelationId(correlationId);
                headerVersion = api.responseHeaderVersion(version);
            }
            int size = header.size(cache, headerVersion) + msg.size(cache, version);
            ByteBuffer buf = ByteBuffer.allocate(4 + size);
            buf.putInt(size);
            ByteBufferAccessor acc = new ByteBufferAccessor(buf);
            header.write(acc, cache, headerVersion);
            msg.write(acc, cache, version);
            byte[] bytes = buf.array();

            // Read back with Kafka's readers, as the receiving side does.
            ByteBufferAccessor in = new ByteBufferAccessor(ByteBuffer.wrap(bytes, 4, size));
            ObjectNode got = JSON.createObjectNode();
            got.put("kind", request ? "request" : "response");
            got.put("apiKey", api.id);
            got.put("api", api.name);
            got.put("version", version);
            got.put("headerVersion", headerVersion);
            ApiMessage back;
            if (request) {
                RequestHeaderData h = new RequestHeaderData();
                h.read(in, headerVersion);
                got.put("correlationId", h.correlationId());
                got.put("clientId", h.clientId());
                back = ApiMessageType.fromApiKey(api.id).newRequest();
            } else {
                ResponseHeaderData h = new ResponseHeaderData();
                h.read(in, headerVersion);
                got.put("correlationId", h.correlationId());
                back = ApiMessageType.fromApiKey(api.id).newResponse();
            }
            back.read(in, version);
            if (in.remaining() != 0) throw new IllegalStateException(name + ": " + in.remaining() + " byte(s) unread");
            JsonNode json = (JsonNode) Probe.converter(api.name + kind + "Data", "write", 3).invoke(null, back, version, true);
            withRecords(back, json);
            got.set("message", json);
            Files.writeString(out.resolve(name + ".hex"), HexFormat.of().formatHex(bytes) + "\n", StandardCharsets.UTF_8);
            Files.writeString(out.resolve(name + ".json"), JSON.writerWithDefaultPrettyPrinter().writeValueAsString(got) + "\n", StandardCharsets.UTF_8);
        }
    }
}
