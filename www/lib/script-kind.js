// script-kind.js: which script language a text is in, before any wasm is loaded (the fences pick
// <kafka-timeline> or <kafka-ladder> by it; the ladder runs a transactions script on the world).
// The same decision as the core's `txn_scenario::is_transactions`.

/**
 * Whether `name` can name a built-in scenario (scenarios/<name>.eos): a file name of letters,
 * digits, `.`, `_` and `-` that starts with a letter or digit and never climbs a folder (`..`).
 * Links, attributes, fences and the pre-built runs all accept a name only through this test, so a
 * name one of them takes opens in every other.
 */
export const isScenarioName = (name) => typeof name === "string" && /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name) && !name.includes("..");

/**
 * The first words only the transactions scripts read: the core's `txn_scenario::TRANSACTIONS_WORDS`
 * (tests/wasm/ladder-states.test.mjs keeps the two lists equal).
 */
export const TRANSACTIONS_WORDS = [
  "init", "begin", "send-all", "send-offsets", "commit", "abort", "crash", "failover", "poll", "rebalance", "seek", "effect", "feature", "release", "inject", "cluster", "txn-state", "group-state", "consumer",
];

/** A script line without its comment (`#` at the start or after whitespace, so `b1#2` stays). */
function uncommented(line) {
  const m = /(^|\s)#/.exec(line);
  return (m ? line.slice(0, m.index) : line).trim();
}

/** Whether a line (its first word and the rest) is one only the transactions scripts read. */
function transactionsLine(line) {
  const [word, ...rest] = line.split(/\s+/);
  if (TRANSACTIONS_WORDS.includes(word)) return true;
  if (word === "delay") return rest[0] === "marker";
  if (word === "producer") return rest.some((w) => w.startsWith("transactional.id="));
  if (word === "repeat") {
    const body = line.split(":").slice(1).join(":");
    return body.split(";").map((x) => x.trim()).filter(Boolean).some(transactionsLine);
  }
  return false;
}

/**
 * Is this script text a transactions script? Its first line that says something is `model
 * transactions`; or, with no `model` line, it uses a line only the transactions scripts read
 * (one script language: the core's `txn_scenario::is_transactions`).
 */
export function isTransactionsScript(text) {
  if (typeof text !== "string") return false;
  const lines = text.split(/\r?\n/).map(uncommented).filter(Boolean);
  if (!lines.length) return false;
  if (/^model\s+transactions$/.test(lines[0])) return true;
  if (/^model(\s|$)/.test(lines[0])) return false;
  return lines.some(transactionsLine);
}
