//! The Java producer's idempotence configuration resolution, exactly as
//! `clients/src/main/java/org/apache/kafka/clients/producer/ProducerConfig.java`
//! (`postProcessAndValidateIdempotenceConfigs`, `parseAcks`; KIP-679, KAFKA-13598,
//! KAFKA-17927) decides it in 4.x — rules P1–P9 of the rule catalogue — and, for
//! comparison, what a 2.x client (before KIP-679 changed the defaults in 3.0) did.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

#[cfg(feature = "serde")]
use serde::Serialize;

/// Which client line resolves the config.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClientLine {
    /// 4.x (the default): idempotence on by default, acks=all, max.in.flight > 5 always fails.
    V4,
    /// 2.x (pre-3.0 defaults): idempotence off by default, acks=1; transactional.id implies it.
    Pre30,
}

/// A user's settings (only what they set, as strings, as in a `.properties` file).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UserConfig {
    pub entries: Vec<(String, String)>,
}

impl UserConfig {
    /// Read `.properties` text: `key=value` (or `key: value`) lines, `#`/`!` comments.
    pub fn parse_properties(text: &str) -> Self {
        let mut entries = Vec::new();
        for line in text.lines() {
            let l = line.trim();
            if l.is_empty() || l.starts_with('#') || l.starts_with('!') {
                continue;
            }
            let (k, v) = match (l.find('='), l.find(':')) {
                (Some(a), Some(b)) => l.split_at(a.min(b)),
                (Some(a), None) | (None, Some(a)) => l.split_at(a),
                (None, None) => (l, "="),
            };
            entries.push((k.trim().to_string(), v[1..].trim().to_string()));
        }
        UserConfig { entries }
    }

    pub fn get(&self, k: &str) -> Option<&str> {
        self.entries.iter().rev().find(|(key, _)| key == k).map(|(_, v)| v.trim())
    }
}

/// The outcome: resolved values, or the `ConfigException` text the constructor throws.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct Resolved {
    pub idempotence: bool,
    /// Why idempotence is on or off, citing the rule.
    pub reason: String,
    /// `acks` as the resolved config stores it ("-1" for all).
    pub acks: String,
    pub retries: i64,
    pub max_in_flight: i64,
    pub transactional_id: Option<String>,
    /// Rule ids that fired (P1 …), in order.
    pub rules: Vec<&'static str>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct ConfigException {
    pub message: String,
    pub rule: &'static str,
}

fn int(cfg: &UserConfig, key: &str, default: i64) -> Result<i64, ConfigException> {
    match cfg.get(key) {
        None => Ok(default),
        Some(v) => v.parse::<i32>().map(|v| v as i64).map_err(|_| ConfigException {
            message: format!("Invalid value {v} for configuration {key}: Not a number of type INT"),
            rule: "P1",
        }),
    }
}

fn boolean(cfg: &UserConfig, key: &str) -> Result<Option<bool>, ConfigException> {
    match cfg.get(key) {
        None => Ok(None),
        Some(v) if v.eq_ignore_ascii_case("true") => Ok(Some(true)),
        Some(v) if v.eq_ignore_ascii_case("false") => Ok(Some(false)),
        Some(v) => Err(ConfigException {
            message: format!("Invalid value {v} for configuration {key}: Expected value to be either true or false"),
            rule: "P2",
        }),
    }
}

/// Resolve a producer config as `new KafkaProducer(props)` would.
pub fn resolve(cfg: &UserConfig, line: ClientLine) -> Result<Resolved, ConfigException> {
    let mut rules = Vec::new();
    // P1: the acks validator is case-sensitive; then "all" → "-1".
    let acks_raw = cfg.get("acks").unwrap_or(if line == ClientLine::V4 { "all" } else { "1" });
    if !["all", "-1", "0", "1"].contains(&acks_raw) {
        return Err(ConfigException {
            message: format!("Invalid value {acks_raw} for configuration acks: String must be one of: all, -1, 0, 1"),
            rule: "P1",
        });
    }
    let acks = if acks_raw == "all" { String::from("-1") } else { acks_raw.to_string() };
    rules.push("P1");
    let retries = int(cfg, "retries", i32::MAX as i64)?;
    let max_in_flight = int(cfg, "max.in.flight.requests.per.connection", 5)?;
    let txn_id = cfg.get("transactional.id").map(ToString::to_string);
    if txn_id.as_deref() == Some("") {
        return Err(ConfigException {
            message: String::from("Invalid value  for configuration transactional.id: String may not be empty"),
            rule: "P7",
        });
    }
    let explicit = boolean(cfg, "enable.idempotence")?;
    let mut reason;

    if line == ClientLine::Pre30 {
        // 2.x: off unless enabled or implied by transactional.id; conflicts always throw.
        let on = explicit.unwrap_or(txn_id.is_some());
        reason = String::from(match (explicit, txn_id.is_some()) {
            (Some(true), _) => "enable.idempotence=true",
            (Some(false), _) => "enable.idempotence=false",
            (None, true) => "transactional.id implies idempotence (2.x)",
            (None, false) => "2.x default: enable.idempotence=false",
        });
        if explicit == Some(false) && txn_id.is_some() {
            return Err(ConfigException {
                message: String::from("Cannot set a transactional.id without also enabling idempotence."),
                rule: "P7",
            });
        }
        if on {
            if max_in_flight > 5 {
                return Err(ConfigException {
                    message: String::from("Must set max.in.flight.requests.per.connection to at most 5 to use the idempotent producer."),
                    rule: "P5",
                });
            }
            if retries == 0 {
                return Err(ConfigException {
                    message: String::from("Must set retries to non-zero when using the idempotent producer."),
                    rule: "P3",
                });
            }
            if acks != "-1" {
                return Err(ConfigException {
                    message: String::from("Must set acks to all in order to use the idempotent producer. Otherwise we cannot guarantee idempotence."),
                    rule: "P4",
                });
            }
        }
        return Ok(Resolved { idempotence: on, reason, acks, retries, max_in_flight, transactional_id: txn_id, rules });
    }

    // P2
    let user_set = explicit.is_some();
    let mut enabled = explicit.unwrap_or(true);
    rules.push("P2");
    reason = String::from(if user_set { "set by the user" } else { "default since 3.0 (KIP-679)" });
    let mut disable = false;
    if enabled {
        // P3
        if retries == 0 {
            rules.push("P3");
            if user_set {
                return Err(ConfigException {
                    message: String::from("Must set retries to non-zero when using the idempotent producer."),
                    rule: "P3",
                });
            }
            disable = true;
            reason = String::from("silently disabled: retries is 0 and enable.idempotence was not set (P3)");
        }
        // P4
        if acks != "-1" {
            rules.push("P4");
            if user_set {
                return Err(ConfigException {
                    message: String::from("Must set acks to all in order to use the idempotent producer. Otherwise we cannot guarantee idempotence."),
                    rule: "P4",
                });
            }
            disable = true;
            reason = format!("silently disabled: acks is {acks}, not all, and enable.idempotence was not set (P4)");
        }
        // P5: an error even when idempotence was only the default (4.0, KAFKA-17927).
        if max_in_flight > 5 {
            rules.push("P5");
            return Err(ConfigException {
                message: format!(
                    "To use the idempotent producer, max.in.flight.requests.per.connection must be set to at most 5. Current value is {max_in_flight}."
                ),
                rule: "P5",
            });
        }
    } else {
        rules.push("P9");
    }
    // P6
    if disable {
        rules.push("P6");
        enabled = false;
    }
    // P7
    if !enabled && txn_id.is_some() {
        rules.push("P7");
        return Err(ConfigException {
            message: String::from("Cannot set a transactional.id without also enabling idempotence."),
            rule: "P7",
        });
    }
    // P8 (4.1+). Kafka's own test only checks that the message names both keys; the
    // wording here is ours.
    if boolean(cfg, "transaction.two.phase.commit.enable")? == Some(true) && cfg.get("transaction.timeout.ms").is_some() {
        rules.push("P8");
        return Err(ConfigException {
            message: String::from("Cannot set transaction.timeout.ms when transaction.two.phase.commit.enable is set to true."),
            rule: "P8",
        });
    }
    Ok(Resolved { idempotence: enabled, reason, acks, retries, max_in_flight, transactional_id: txn_id, rules })
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    fn cfg(pairs: &[(&str, &str)]) -> UserConfig {
        UserConfig { entries: pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect() }
    }

    fn err(pairs: &[(&str, &str)]) -> ConfigException {
        resolve(&cfg(pairs), ClientLine::V4).unwrap_err()
    }

    #[test]
    fn p2_defaults_turn_idempotence_on_in_4x() {
        let r = resolve(&cfg(&[]), ClientLine::V4).unwrap();
        assert!(r.idempotence);
        assert_eq!((r.acks.as_str(), r.retries, r.max_in_flight), ("-1", 2147483647, 5));
    }

    #[test]
    fn p1_acks_is_case_sensitive() {
        assert_eq!(err(&[("acks", "ALL")]).message, "Invalid value ALL for configuration acks: String must be one of: all, -1, 0, 1");
    }

    #[test]
    fn p3_p4_explicit_idempotence_conflicts_throw() {
        assert_eq!(err(&[("acks", "1"), ("enable.idempotence", "true")]).rule, "P4");
        assert_eq!(
            err(&[("retries", "0"), ("enable.idempotence", "true")]).message,
            "Must set retries to non-zero when using the idempotent producer."
        );
    }

    #[test]
    fn p3_p4_implicit_idempotence_is_silently_disabled() {
        let r = resolve(&cfg(&[("acks", "1")]), ClientLine::V4).unwrap();
        assert!(!r.idempotence);
        assert_eq!(r.rules, vec!["P1", "P2", "P4", "P6"]);
        assert!(!resolve(&cfg(&[("retries", "0")]), ClientLine::V4).unwrap().idempotence);
    }

    #[test]
    fn p5_max_in_flight_above_5_throws_even_when_implicit() {
        // KAFKA-17927 (4.0): acks=1 + max.in.flight=10 with enable.idempotence unset throws.
        let e = err(&[("acks", "1"), ("max.in.flight.requests.per.connection", "10")]);
        assert_eq!(
            e.message,
            "To use the idempotent producer, max.in.flight.requests.per.connection must be set to at most 5. Current value is 10."
        );
    }

    #[test]
    fn p7_transactional_id_needs_idempotence() {
        assert_eq!(
            err(&[("transactional.id", "tx"), ("enable.idempotence", "false")]).message,
            "Cannot set a transactional.id without also enabling idempotence."
        );
        assert_eq!(err(&[("transactional.id", "tx"), ("acks", "1")]).rule, "P7");
    }

    #[test]
    fn p9_disabled_idempotence_allows_anything() {
        let r = resolve(&cfg(&[("enable.idempotence", "false"), ("max.in.flight.requests.per.connection", "10"), ("acks", "0"), ("retries", "0")]), ClientLine::V4).unwrap();
        assert!(!r.idempotence);
    }

    #[test]
    fn properties_text_is_read_like_java_properties() {
        let c = UserConfig::parse_properties("# comment\nacks = 1\nretries: 0\n\n! also a comment\nenable.idempotence=true\n");
        assert_eq!(c.get("acks"), Some("1"));
        assert_eq!(c.get("retries"), Some("0"));
        assert_eq!(resolve(&c, ClientLine::V4).unwrap_err().rule, "P3");
    }

    #[test]
    fn pre_30_defaults_leave_idempotence_off() {
        let r = resolve(&cfg(&[]), ClientLine::Pre30).unwrap();
        assert!(!r.idempotence);
        assert_eq!(r.acks, "1");
        assert!(resolve(&cfg(&[("transactional.id", "t"), ("acks", "all")]), ClientLine::Pre30).unwrap().idempotence);
    }
}
