//! Deterministic, sans-IO models of the decisions Kafka makes: the partition leader's
//! producer-state checks ([`partition`]), the idempotent producer and its network
//! ([`idempotence`]), the scenario language that drives them ([`scenario`]; the transactions
//! scripts: [`txn_scenario`]; what both languages share: [`script`]) and the Java producer's
//! configuration resolution ([`config`]).

pub mod cluster;
pub mod config;
pub mod coordinator;
pub mod errors;
pub mod idempotence;
pub mod kafka_source;
pub mod line;
pub mod name;
pub mod partition;
pub mod report;
pub mod scenario;
pub mod suggest;
pub mod schedule;
pub mod script;
pub mod txn;
pub mod txn_report;
pub mod txn_scenario;
pub mod verdict;
