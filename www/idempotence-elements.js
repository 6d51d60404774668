// Defines <kafka-ladder> and <kafka-producer-config> (each module defines its element on import).
// A page embeds them with one tag: <script type="module" src="idempotence-elements.js"></script>
// (a file, not an inline script, so pages with script-src 'self' work).
import "./kafka-ladder.js";
import "./kafka-producer-config.js";
