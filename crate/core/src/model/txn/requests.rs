// Over 800 lines on purpose: every request verb's parser and its answer (coordinator or leader), side by side per verb; tests in requests/tests.rs.
//! Requests sent straight to the cluster (issue 13, "ask the cluster directly"): a script line
//! names a Kafka request and its fields, the coordinator or the partition leader answers it
//! with the same decisions the Java clients meet, and the answer — error by Kafka's name and
//! number, offsets, the returned producer id and epoch, the rule and its Kafka source — is
//! kept under a label for `expect` lines.
//!
//! ```text
//! init-producer-id transactional.id=app timeout=60s as i1          # I1–I11
//! add-partitions-to-txn transactional.id=app pid=1000 epoch=0 orders-0 [verify-only] [v=N]
//! produce orders-0 pid=1000 epoch=0 seq=0 txn transactional.id=app [v=12] a b c as p1
//! produce orders-0 batch=HEX [transactional.id=app] [v=12] as p2   # a batch given as bytes
//! end-txn transactional.id=app pid=1000 epoch=0 commit [v=5]       # E0–E7 (v ≤ 4), F0–F6 (v ≥ 5)
//! marker orders-0 pid=1000 epoch=1 commit [coordinator-epoch=C] [tv=1|2]   # WriteTxnMarkers, M1–M6
//! fetch orders-0 read_committed [from=N]                            # L4
//! list-offsets orders-0 read_committed                              # L5
//! find-coordinator transaction app                                  # §3.1 (H1), H2 for a group
//! add-offsets-to-txn transactional.id=app pid=1000 epoch=0 group=g [v=4]   # AP1–AP8 for __consumer_offsets-N
//! txn-offset-commit transactional.id=app pid=1000 epoch=0 group=g [generation=-1] [member=ID]
//!     [group-instance-id=ID] [v=5] orders-0=3 …                     # G3, G1/G2, G4 (§3.7)
//! offset-fetch group=g [require-stable] orders-0 …                  # G5
//! expect p1 appended 0..2 / expect i1 pid 1000 epoch 0 / expect e1 error CONCURRENT_TRANSACTIONS
//! ```
//!
//! A request changes only the cluster: no Java client's `TransactionManager` sees its answer.
//! Its lane is `producer:NAME` (`from=NAME`, default `client`), so a view draws it like a
//! producer's traffic.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::coordinator::{self, Tv, TxnState, TRANSACTION_STATE_PARTITIONS};
use super::{data_batch, as_stored, ErrorCode, Isolation, MarkerReq, MarkerVersion, Name, Outcome, TxnInstance, World};
use super::{CONSUMER_OFFSETS_PARTITIONS, COORD_LANE, DEFAULT_TXN_TIMEOUT_MS, OFFSETS_LANE};

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};
use crate::model::kafka_source::{FIRST_UNSTABLE_OFFSET_SNAPSHOT, GROUP_COORDINATOR_PARTITION_FOR, INIT_PRODUCER_ID_WITHOUT_TRANSACTIONAL_ID, KAFKA_APIS_PRODUCE, LOG_INPUT_STREAM_NEXT_BATCH_SIZE, OFFSET_METADATA_MANAGER, PRODUCE_REQUEST_VALIDATE_RECORDS, REPLICA_MANAGER_OFFSET_FOR_TIMESTAMP, REPLICA_MANAGER_READ_FROM_LOG, REPLICA_MANAGER_VERIFICATION, TRANSACTION_COORDINATOR, TRANSACTION_COORDINATOR_PARTITION_FOR, TRANSACTION_MARKER_CHANNEL_MANAGER};

/// One request, with the fields a client could put in it.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(tag = "api", rename_all = "PascalCase"))]
pub enum Request {
    /// InitProducerId: `transactional_id` empty for an idempotent producer (I1); `current` the
    /// KIP-360 (producerId, producerEpoch) a client sends to recover.
    ///
    /// `empty_id`: the transactionalId is the empty string, not null (`transactional.id=""`):
    /// the coordinator refuses it as INVALID_REQUEST (I2).
    InitProducerId {
        transactional_id: String,
        timeout_ms: i32,
        current: Option<(i64, i16)>,
        #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "core::ops::Not::not"))]
        empty_id: bool,
        /// `v=N` (0–6; none: the Java 4.x client's v5). v0–2 carry no producer id and epoch
        /// (KIP-360, v3) and v0–3 read PRODUCER_FENCED as INVALID_PRODUCER_EPOCH (KIP-588, v4).
        #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
        version: Option<i16>,
        /// v6's KIP-939 flags (`keep-prepared`, `enable-2pc`): an unstable API in 4.3, declared
        /// OUTSIDE_MODEL (I13).
        #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "core::ops::Not::not"))]
        two_phase: bool,
    },
    /// AddPartitionsToTxn: v ≤ 3 a TV1 client's add; v4+ a leader's (`verify_only`: KIP-890
    /// part 1 verification, V3; else the add of a TV2 leader, v5 records clientTransactionVersion 2).
    AddPartitionsToTxn { transactional_id: String, producer_id: i64, epoch: i16, partitions: Vec<String>, verify_only: bool, version: i16 },
    /// EndTxn: v ≤ 4 the TV1 rules (E0–E7), v5+ the TV2 rules (F0–F6).
    EndTxn { transactional_id: String, producer_id: i64, epoch: i16, commit: bool, version: i16 },
    /// WriteTxnMarkers for one partition, from outside the coordinator's own pipeline (a
    /// retried, delayed or admin marker, K7): the leader's marker checks M1–M6.
    WriteTxnMarkers {
        partition: String,
        producer_id: i64,
        epoch: i16,
        commit: bool,
        coordinator_epoch: i32,
        tv2: bool,
        /// The request's other partitions (`marker P1 P2 …`): one marker for the transaction,
        /// written to each, each answered on its own.
        #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Vec::is_empty"))]
        more: Vec<String>,
    },
    /// Produce (acks=-1) of one batch: v ≤ 11 a TV1 client's (the leader verifies, V3), v12+ a
    /// TV2 client's (the leader adds the partition, V4).
    Produce { partition: String, producer_id: i64, epoch: i16, base_sequence: i32, transactional: bool, transactional_id: String, version: i16, values: Vec<String> },
    /// Produce (acks=-1) of a batch given as raw bytes (any batch the inspector decodes: issue
    /// 13, "Send to a leader"): its producer id, epoch, sequences, record count and
    /// transactional bit are the batch's own; bytes that are not one v2 batch are refused as
    /// Kafka's request handling refuses them ([`frame_one_batch`]).
    ProduceBytes { partition: String, bytes: Vec<u8>, transactional_id: String, version: i16 },
    Fetch { partition: String, read_committed: bool, from_offset: i64 },
    ListOffsets { partition: String, read_committed: bool },
    FindCoordinator { group: bool, key: String },
    /// AddOffsetsToTxn (a TV1 client's, v ≤ 4): the coordinator adds the group's
    /// `__consumer_offsets` partition to the transaction, by the AddPartitionsToTxn rules (AP1–AP8).
    AddOffsetsToTxn { transactional_id: String, producer_id: i64, epoch: i16, group: String, version: i16 },
    /// TxnOffsetCommit to the group coordinator: v0–v4 a TV1 client's (the coordinator verifies
    /// its partition is in the transaction; below v4 TRANSACTION_ABORTABLE goes back as
    /// INVALID_TXN_STATE, V5; below v3 there is no generation or member), v5 a TV2 client's (it
    /// adds it, G3); then the group's fields (G1/G2) and the pending write (G4).
    TxnOffsetCommit { transactional_id: String, producer_id: i64, epoch: i16, group: String, generation: i32, member: String, instance: Option<String>, version: i16, offsets: Vec<(String, i64)> },
    /// OffsetFetch (G5): the committed offsets, UNSTABLE_OFFSET_COMMIT for a partition with a
    /// pending transactional commit when `require_stable`.
    OffsetFetch { group: String, require_stable: bool, partitions: Vec<String> },
}

impl Request {
    /// Kafka's name of the API.
    pub fn api(&self) -> &'static str {
        match self {
            Request::InitProducerId { .. } => "InitProducerId",
            Request::AddPartitionsToTxn { .. } => "AddPartitionsToTxn",
            Request::EndTxn { .. } => "EndTxn",
            Request::WriteTxnMarkers { .. } => "WriteTxnMarkers",
            Request::Produce { .. } | Request::ProduceBytes { .. } => "Produce",
            Request::Fetch { .. } => "Fetch",
            Request::ListOffsets { .. } => "ListOffsets",
            Request::FindCoordinator { .. } => "FindCoordinator",
            Request::AddOffsetsToTxn { .. } => "AddOffsetsToTxn",
            Request::TxnOffsetCommit { .. } => "TxnOffsetCommit",
            Request::OffsetFetch { .. } => "OffsetFetch",
        }
    }

    /// The request as a script line (without its label and sender).
    pub fn line(&self) -> String {
        // The empty string is written `""` (not null: AP1, E0, F0).
        let tid = |t: &str| if t.is_empty() { String::from("\"\"") } else { String::from(t) };
        let iso = |rc: bool| if rc { "read_committed" } else { "read_uncommitted" };
        let result = |c: bool| if c { "commit" } else { "abort" };
        match self {
            Request::InitProducerId { transactional_id, timeout_ms, current, empty_id, version, two_phase } => {
                let mut s = String::from("init-producer-id");
                if *empty_id {
                    s.push_str(&format!(" transactional.id=\"\" timeout={timeout_ms}ms"));
                } else if !transactional_id.is_empty() {
                    s.push_str(&format!(" transactional.id={transactional_id} timeout={timeout_ms}ms"));
                }
                if let Some((p, e)) = current {
                    s.push_str(&format!(" pid={p} epoch={e}"));
                }
                if *two_phase {
                    s.push_str(" keep-prepared");
                }
                if let Some(v) = version {
                    s.push_str(&format!(" v={v}"));
                }
                s
            }
            Request::AddPartitionsToTxn { transactional_id, producer_id, epoch, partitions, verify_only, version } => format!(
                "add-partitions-to-txn transactional.id={} pid={producer_id} epoch={epoch} {}{} v={version}",
                tid(transactional_id),
                partitions.join(" "),
                if *verify_only { " verify-only" } else { "" }
            ),
            Request::EndTxn { transactional_id, producer_id, epoch, commit, version } => {
                format!("end-txn transactional.id={} pid={producer_id} epoch={epoch} {} v={version}", tid(transactional_id), result(*commit))
            }
            Request::WriteTxnMarkers { partition, producer_id, epoch, commit, coordinator_epoch, tv2, more } => format!(
                "marker {partition}{} pid={producer_id} epoch={epoch} {} coordinator-epoch={coordinator_epoch} tv={}",
                more.iter().map(|p| format!(" {p}")).collect::<String>(),
                result(*commit),
                if *tv2 { 2 } else { 1 }
            ),
            Request::Produce { partition, producer_id, epoch, base_sequence, transactional, transactional_id, version, values } => format!(
                "produce {partition} pid={producer_id} epoch={epoch} seq={base_sequence}{}{} v={version} {}",
                if *transactional { " txn" } else { "" },
                if transactional_id.is_empty() { String::new() } else { format!(" transactional.id={transactional_id}") },
                values.join(" ")
            ),
            Request::ProduceBytes { partition, bytes, transactional_id, version } => format!(
                "produce {partition} batch={}{} v={version}",
                crate::report::to_hex(bytes),
                if transactional_id.is_empty() { String::new() } else { format!(" transactional.id={transactional_id}") }
            ),
            Request::Fetch { partition, read_committed, from_offset } => format!("fetch {partition} {} from={from_offset}", iso(*read_committed)),
            Request::ListOffsets { partition, read_committed } => format!("list-offsets {partition} {}", iso(*read_committed)),
            Request::FindCoordinator { group, key } => format!("find-coordinator {} {key}", if *group { "group" } else { "transaction" }),
            Request::AddOffsetsToTxn { transactional_id, producer_id, epoch, group, version } => {
                format!("add-offsets-to-txn transactional.id={} pid={producer_id} epoch={epoch} group={group} v={version}", tid(transactional_id))
            }
            Request::TxnOffsetCommit { transactional_id, producer_id, epoch, group, generation, member, instance, version, offsets } => format!(
                "txn-offset-commit transactional.id={transactional_id} pid={producer_id} epoch={epoch} group={group} generation={generation}{}{} v={version} {}",
                if member.is_empty() { String::new() } else { format!(" member={member}") },
                instance.as_ref().map_or(String::new(), |x| format!(" group-instance-id={x}")),
                offsets.iter().map(|(p, o)| format!("{p}={o}")).collect::<Vec<_>>().join(" ")
            ),
            Request::OffsetFetch { group, require_stable, partitions } => {
                format!("offset-fetch group={group}{} {}", if *require_stable { " require-stable" } else { "" }, partitions.join(" "))
            }
        }
    }
}

/// Is `word` the verb of a request line (`end-txn`, or Kafka's `EndTxn`)?
pub fn is_request_verb(word: &str) -> bool {
    verb(word).is_some()
}

fn verb(word: &str) -> Option<&'static str> {
    let w: String = word.chars().filter(|c| *c != '-').flat_map(char::to_lowercase).collect();
    Some(match w.as_str() {
        "initproducerid" => "init-producer-id",
        "addpartitionstotxn" => "add-partitions-to-txn",
        "endtxn" => "end-txn",
        "writetxnmarkers" | "marker" => "marker",
        "produce" => "produce",
        "fetch" => "fetch",
        "listoffsets" => "list-offsets",
        "findcoordinator" => "find-coordinator",
        "addoffsetstotxn" => "add-offsets-to-txn",
        "txnoffsetcommit" => "txn-offset-commit",
        "offsetfetch" => "offset-fetch",
        _ => return None,
    })
}

/// Parse a request line (`words[0]` is its verb); `Ok((request, label, sender))`.
pub fn parse_request(words: &[&str]) -> Result<(Request, Option<String>, Option<String>), String> {
    let v = verb(words[0]).ok_or_else(|| format!("{:?} is not a request", words[0]))?;
    let mut words: Vec<&str> = words[1..].to_vec();
    // `… as LABEL` at the end names the answer for `expect LABEL …`.
    let mut label = None;
    if words.len() >= 2 && words[words.len() - 2] == "as" {
        let l = words[words.len() - 1];
        if l.contains('=') || l.is_empty() {
            return Err(format!("bad label {l:?}"));
        }
        label = Some(l.to_string());
        words.truncate(words.len() - 2);
    }
    let mut from = None;
    let (mut id, mut pid, mut epoch, mut seq, mut version, mut ce, mut tv2) = (None::<String>, None::<i64>, None::<i16>, None::<i32>, None::<i16>, 0i32, false);
    let (mut timeout, mut commit, mut txn, mut verify_only, mut rc, mut from_offset) = (None::<i32>, None::<bool>, false, false, None::<bool>, 0i64);
    let mut batch: Option<Vec<u8>> = None;
    let (mut group, mut generation, mut member, mut instance, mut stable) = (None::<String>, -1i32, String::new(), None::<String>, false);
    let mut offsets: Vec<(String, i64)> = Vec::new();
    let mut empty_id = false;
    let mut two_phase = false;
    let is_part = |k: &str| k.rsplit_once('-').is_some_and(|(t, n)| !t.is_empty() && n.parse::<i32>().is_ok_and(|n| n >= 0));
    let mut bare: Vec<&str> = Vec::new();
    for w in &words {
        let num = |x: &str| x.parse::<i64>().map_err(|_| format!("{w}: expected a number"));
        match w.split_once('=') {
            // `transactional.id=""`: the empty string, which is not null (I2).
            Some(("transactional.id", "\"\"")) => {
                id = Some(String::new());
                empty_id = true;
            }
            Some(("transactional.id", x)) => id = Some(x.to_string()),
            Some(("pid", x)) => pid = Some(num(x)?),
            Some(("epoch", x)) => epoch = Some(i16::try_from(num(x)?).map_err(|_| String::from("epoch is a 16-bit number"))?),
            Some(("seq", x)) => seq = Some(i32::try_from(num(x)?).map_err(|_| String::from("seq is a 32-bit number"))?),
            Some(("v", x)) => version = Some(i16::try_from(num(x)?).ok().filter(|v| (0..=20).contains(v)).ok_or_else(|| String::from("v is a request version (0..20)"))?),
            Some(("coordinator-epoch", x)) => ce = i32::try_from(num(x)?).map_err(|_| String::from("coordinator-epoch is a 32-bit number"))?,
            Some(("tv", x)) => {
                tv2 = match x {
                    "0" | "1" => false,
                    "2" => true,
                    _ => return Err(String::from("tv is 1 or 2")),
                }
            }
            Some(("timeout", x)) => {
                timeout = Some(super::super::script::parse_duration(x).and_then(|t| i32::try_from(t).ok()).ok_or_else(|| format!("bad duration {x:?}"))?)
            }
            Some(("from", x)) if v == "fetch" && x.parse::<i64>().is_ok() => from_offset = num(x)?,
            Some(("batch", x)) if v == "produce" => batch = Some(crate::spec::parse_hex(x).map_err(|e| format!("batch=: {e}"))?),
            Some(("group", x)) if matches!(v, "add-offsets-to-txn" | "txn-offset-commit" | "offset-fetch") => group = Some(x.to_string()),
            Some(("generation", x)) if v == "txn-offset-commit" => generation = i32::try_from(num(x)?).map_err(|_| String::from("generation is a 32-bit number"))?,
            Some(("member", x)) if v == "txn-offset-commit" => member = x.to_string(),
            Some(("group-instance-id", x)) if v == "txn-offset-commit" => instance = Some(x.to_string()),
            Some((k, x)) if v == "txn-offset-commit" && is_part(k) => offsets.push((k.to_string(), num(x)?)),
            Some(("from", x)) => from = Some(x.to_string()),
            Some((k, _)) => return Err(format!("unknown field {k:?} for {v}")),
            None => match *w {
                "commit" | "abort" if matches!(v, "end-txn" | "marker") => commit = Some(*w == "commit"),
                "txn" if v == "produce" => txn = true,
                "verify-only" if v == "add-partitions-to-txn" => verify_only = true,
                "read_committed" | "read_uncommitted" if matches!(v, "fetch" | "list-offsets") => rc = Some(*w == "read_committed"),
                "require-stable" if v == "offset-fetch" => stable = true,
                "keep-prepared" | "enable-2pc" if v == "init-producer-id" => two_phase = true,
                _ => bare.push(w),
            },
        }
    }
    if version.is_some() && !matches!(v, "init-producer-id" | "add-partitions-to-txn" | "add-offsets-to-txn" | "txn-offset-commit" | "end-txn" | "produce") {
        return Err(format!("v= is not read for {v}: its answer is the same at every version the model knows"));
    }
    let need_pid = |what: &str| match (pid, epoch) {
        (Some(p), Some(e)) => Ok((p, e)),
        _ => Err(format!("`{what}` needs pid=N and epoch=E")),
    };
    let need_id = |what: &str| id.clone().filter(|s| !s.is_empty()).ok_or_else(|| format!("`{what}` needs transactional.id=ID"));
    // The transaction coordinator's requests may carry the empty string (`transactional.id=""`),
    // which it refuses as INVALID_REQUEST (AP1, E0, F0).
    let coordinator_id = |what: &str| if empty_id { Ok(String::new()) } else { need_id(what) };
    let one_partition = |bare: &[&str], what: &str| match bare {
        [p] => Ok(p.to_string()),
        [] => Err(format!("`{what}` needs a partition")),
        [_, x, ..] => Err(format!("unexpected {x:?}")),
    };
    let request = match v {
        "init-producer-id" => {
            if let Some(x) = bare.first() {
                return Err(format!("unexpected {x:?}"));
            }
            let current = match (pid, epoch) {
                (Some(p), Some(e)) => Some((p, e)),
                (None, None) => None,
                _ => return Err(String::from("a KIP-360 InitProducerId gives both pid=N and epoch=E")),
            };
            if version.is_some_and(|v| v > 6) {
                return Err(String::from("InitProducerId has versions 0–6"));
            }
            if current.is_some() && version.is_some_and(|v| v < 3) {
                return Err(String::from("pid= and epoch= are fields of InitProducerId v3+ (KIP-360)"));
            }
            if two_phase && version.is_some_and(|v| v < 6) {
                return Err(String::from("keep-prepared and enable-2pc are fields of InitProducerId v6 (KIP-939)"));
            }
            Request::InitProducerId { transactional_id: id.unwrap_or_default(), timeout_ms: timeout.unwrap_or(DEFAULT_TXN_TIMEOUT_MS), current, empty_id, version, two_phase }
        }
        "add-partitions-to-txn" => {
            let (p, e) = need_pid("add-partitions-to-txn")?;
            if bare.is_empty() {
                return Err(String::from("`add-partitions-to-txn` needs at least one partition"));
            }
            let version = version.unwrap_or(if verify_only { 4 } else { 3 });
            if verify_only && version < 4 {
                return Err(String::from("verify-only is a field of AddPartitionsToTxn v4+ (the leader's form)"));
            }
            Request::AddPartitionsToTxn {
                transactional_id: coordinator_id("add-partitions-to-txn")?,
                producer_id: p,
                epoch: e,
                partitions: bare.iter().map(|s| s.to_string()).collect(),
                verify_only,
                version,
            }
        }
        "end-txn" => {
            let (p, e) = need_pid("end-txn")?;
            if let Some(x) = bare.first() {
                return Err(format!("unexpected {x:?}"));
            }
            Request::EndTxn {
                transactional_id: coordinator_id("end-txn")?,
                producer_id: p,
                epoch: e,
                commit: commit.ok_or_else(|| String::from("`end-txn` needs commit or abort"))?,
                version: version.unwrap_or(5),
            }
        }
        "marker" => {
            let (p, e) = need_pid("marker")?;
            let Some((first, more)) = bare.split_first() else { return Err(String::from("`marker` needs a partition")) };
            if let Some(x) = more.iter().enumerate().find_map(|(k, x)| (more[..k].contains(x) || x == first).then_some(x)) {
                return Err(format!("{x} is named twice: a WriteTxnMarkers request names each partition once"));
            }
            Request::WriteTxnMarkers {
                partition: first.to_string(),
                producer_id: p,
                epoch: e,
                commit: commit.ok_or_else(|| String::from("`marker` needs commit or abort"))?,
                coordinator_epoch: ce,
                tv2,
                more: more.iter().map(|x| x.to_string()).collect(),
            }
        }
        "produce" if batch.is_some() => {
            if pid.is_some() || epoch.is_some() || seq.is_some() || txn {
                return Err(String::from("`produce PART batch=HEX` takes the producer id, epoch, sequence and transactional bit from the batch: no pid=, epoch=, seq= or txn"));
            }
            Request::ProduceBytes {
                partition: one_partition(&bare, "produce")?,
                bytes: batch.unwrap_or_default(),
                transactional_id: id.unwrap_or_default(),
                version: version.unwrap_or(12),
            }
        }
        "produce" => {
            let (p, e) = need_pid("produce")?;
            let Some((part, values)) = bare.split_first() else { return Err(String::from("`produce` needs a partition")) };
            if values.is_empty() {
                return Err(String::from("`produce PART pid=N epoch=E seq=S [txn] VALUE…` needs at least one record value"));
            }
            Request::Produce {
                partition: part.to_string(),
                producer_id: p,
                epoch: e,
                base_sequence: seq.ok_or_else(|| String::from("`produce` needs seq=S (-1 for none)"))?,
                transactional: txn,
                transactional_id: id.unwrap_or_default(),
                version: version.unwrap_or(12),
                values: values.iter().map(|s| s.to_string()).collect(),
            }
        }
        "fetch" => Request::Fetch { partition: one_partition(&bare, "fetch")?, read_committed: rc.unwrap_or(false), from_offset },
        "list-offsets" => Request::ListOffsets { partition: one_partition(&bare, "list-offsets")?, read_committed: rc.unwrap_or(false) },
        "add-offsets-to-txn" | "txn-offset-commit" | "offset-fetch" => {
            let group = group.filter(|g| !g.is_empty()).ok_or_else(|| format!("`{v}` needs group=G"))?;
            match v {
                "add-offsets-to-txn" => {
                    let (p, e) = need_pid(v)?;
                    if let Some(x) = bare.first() {
                        return Err(format!("unexpected {x:?}"));
                    }
                    let version = version.unwrap_or(4);
                    if version > 4 {
                        return Err(String::from("AddOffsetsToTxn has versions 0–4 (a TV2 client sends none: TxnOffsetCommit v5 adds the partition)"));
                    }
                    Request::AddOffsetsToTxn { transactional_id: coordinator_id(v)?, producer_id: p, epoch: e, group, version }
                }
                "txn-offset-commit" => {
                    let (p, e) = need_pid(v)?;
                    if let Some(x) = bare.first() {
                        return Err(format!("unexpected {x:?} (offsets are PART=OFFSET)"));
                    }
                    if offsets.is_empty() {
                        return Err(String::from("`txn-offset-commit` needs at least one PART=OFFSET"));
                    }
                    let version = version.unwrap_or(5);
                    if !(0..=5).contains(&version) {
                        return Err(String::from("TxnOffsetCommit has versions 0–5 (v5 a TV2 client's: the partition is added; v0–v4 verify it)"));
                    }
                    if version < 3 && (generation != -1 || !member.is_empty() || instance.is_some()) {
                        return Err(format!("TxnOffsetCommit v{version} has no generation, member or group-instance-id (v3 adds them)"));
                    }
                    Request::TxnOffsetCommit { transactional_id: need_id(v)?, producer_id: p, epoch: e, group, generation, member, instance, version, offsets }
                }
                _ => {
                    if bare.is_empty() {
                        return Err(String::from("`offset-fetch` needs at least one partition"));
                    }
                    Request::OffsetFetch { group, require_stable: stable, partitions: bare.iter().map(|s| s.to_string()).collect() }
                }
            }
        }
        _ => match bare.as_slice() {
            ["transaction" | "txn", key] => Request::FindCoordinator { group: false, key: key.to_string() },
            ["group", key] => Request::FindCoordinator { group: true, key: key.to_string() },
            _ => return Err(String::from("usage: find-coordinator transaction|group KEY")),
        },
    };
    Ok((request, label, from))
}

/// The answer to a [`Request`], as data.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct Reply {
    pub api: &'static str,
    /// Kafka's error name (NONE on success) and number.
    pub error: String,
    pub error_code: i16,
    pub rule: &'static str,
    pub source: &'static str,
    pub why: String,
    /// InitProducerId / EndTxn (TV2): the producer id and epoch returned.
    pub producer_id: Option<i64>,
    pub producer_epoch: Option<i16>,
    /// Produce: "appended", "duplicate" or "rejected", and the batch's offsets.
    pub outcome: Option<String>,
    pub offsets: Option<(i64, i64)>,
    /// Fetch / ListOffsets: the partition's high watermark and last stable offset, the offset
    /// answered (ListOffsets LATEST), the records returned (offset, value; markers excluded)
    /// and abortedTransactions (producer id, first offset), `None` for read_uncommitted.
    pub high_watermark: Option<i64>,
    pub last_stable_offset: Option<i64>,
    pub offset: Option<i64>,
    pub records: Vec<(i64, Option<String>)>,
    pub aborted: Option<Vec<(i64, i64)>>,
    /// FindCoordinator: the internal topic's partition and the hash that picked it.
    pub coordinator_partition: Option<i32>,
    pub hash: Option<i32>,
    /// Produce: the batch as sent (hex), what the inspector decodes and a real broker is sent.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub batch: Option<String>,
    /// Produce of raw bytes refused for what they are: the byte the refusal is about
    /// (batchLength 8, magic 16, crc 17, attributes 21, baseSequence 53, recordsCount 57, …).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub byte_offset: Option<usize>,
    /// TxnOffsetCommit / OffsetFetch: each partition's answer (partition, error name, the
    /// committed offset OffsetFetch returned, `None` for none).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub partitions: Vec<(String, String, Option<i64>)>,
    /// Produce acks=-1 above the HW: the HW the answer waits for (DelayedProduce, R1); the
    /// answer comes at a later step (NONE, REQUEST_TIMED_OUT or NOT_LEADER_OR_FOLLOWER).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub waiting_for_hw: Option<i64>,
    /// Which held answer this is ([`World::released`] names it when it goes out).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub held_id: Option<u64>,
}

/// The fields of a Produce the leader's decision reads (from a `produce` line or the batch).
struct Sent<'a> {
    partition: &'a str,
    producer_id: i64,
    epoch: i16,
    transactional: bool,
    id: &'a str,
    version: i16,
    values: &'a [String],
}

/// Why a Produce's records are not one batch, as Kafka's request handling finds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrameError {
    /// INVALID_RECORD (87) or CORRUPT_MESSAGE (2).
    pub error: ErrorCode,
    /// The byte the refusal is about.
    pub at: usize,
    pub why: String,
    pub source: &'static str,
    /// A whole first batch was framed (the refusal is about what follows it), this long.
    pub after_first: bool,
    pub first_len: usize,
}

/// `ByteBufferLogInputStream.nextBatchSize` + `nextBatch` at `at`: `Ok(None)` when no whole
/// batch starts there (the iterator ends), `Ok(Some(len))` for a whole batch.
fn next_batch(bytes: &[u8], at: usize) -> Result<Option<usize>, (usize, String)> {
    let rest = &bytes[at.min(bytes.len())..];
    if rest.len() < 12 {
        return Ok(None);
    }
    let size = i32::from_be_bytes([rest[8], rest[9], rest[10], rest[11]]);
    if size < 14 {
        return Err((at + 8, format!("Record size {size} is less than the minimum record overhead (14)")));
    }
    if rest.len() < 17 {
        return Ok(None);
    }
    let magic = rest[16] as i8;
    if !(0..=2).contains(&magic) {
        return Err((at + 16, format!("Invalid magic found in record: {magic}")));
    }
    let total = size as usize + 12;
    Ok((rest.len() >= total).then_some(total))
}

/// What Kafka checks of a Produce's records before the leader's decision
/// (`ProduceRequest.validateRecords` over `ByteBufferLogInputStream`): exactly one whole
/// batch, of magic 2. `Ok(len)`: the batch is `bytes[..len]`; bytes after it that frame no
/// whole batch are not refused — the log drops them (`UnifiedLog.trimInvalidBytes`).
pub fn frame_one_batch(bytes: &[u8], version: i16) -> Result<usize, FrameError> {
    let fail = |error, at, why: String, source, first: Option<usize>| FrameError { error, at, why, source, after_first: first.is_some(), first_len: first.unwrap_or(0) };
    let first = match next_batch(bytes, 0) {
        Err((at, why)) => return Err(fail(ErrorCode::CORRUPT_MESSAGE, at, why, LOG_INPUT_STREAM_NEXT_BATCH_SIZE, None)),
        Ok(None) => {
            let (at, short) = if bytes.len() < 12 {
                (0, format!("{} byte(s) hold no batch header (baseOffset and batchLength are 12 bytes)", bytes.len()))
            } else if bytes.len() < 17 {
                (bytes.len(), format!("{} byte(s) end before the magic byte (byte 16)", bytes.len()))
            } else {
                let size = i32::from_be_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]);
                (8, format!("batchLength {size} says {} bytes follow byte 12, only {} do", size, bytes.len() - 12))
            };
            return Err(fail(ErrorCode::INVALID_RECORD, at, format!("Produce requests with version {version} must have at least one record batch per partition: {short}"), PRODUCE_REQUEST_VALIDATE_RECORDS, None));
        }
        Ok(Some(len)) => len,
    };
    if bytes[16] != 2 {
        return Err(fail(ErrorCode::INVALID_RECORD, 16, format!("Produce requests with version {version} are only allowed to contain record batches with magic version 2 (magic {})", bytes[16]), PRODUCE_REQUEST_VALIDATE_RECORDS, None));
    }
    match next_batch(bytes, first) {
        Err((at, why)) => Err(fail(ErrorCode::CORRUPT_MESSAGE, at, format!("after the first batch ({first} bytes): {why}"), LOG_INPUT_STREAM_NEXT_BATCH_SIZE, Some(first))),
        Ok(Some(_)) => Err(fail(ErrorCode::INVALID_RECORD, first, format!("Produce requests with version {version} are only allowed to contain exactly one record batch per partition (a second batch starts at byte {first})"), PRODUCE_REQUEST_VALIDATE_RECORDS, Some(first))),
        Ok(None) => Ok(first),
    }
}

/// An end-transaction marker batch's type and coordinator epoch: `(commit, coordinator epoch)`
/// (-1 when the marker has none; `None` for a batch that is not a COMMIT/ABORT marker).
pub(super) fn marker_of(bytes: &[u8]) -> Option<(bool, i32)> {
    let r = crate::decode::decode_bytes(bytes, &Default::default());
    let c = r.batches.first()?.control.as_ref()?;
    match c.type_name.as_str() {
        "COMMIT" => Some((true, c.coordinator_epoch.unwrap_or(-1))),
        "ABORT" => Some((false, c.coordinator_epoch.unwrap_or(-1))),
        _ => None,
    }
}

/// The records' values as text, for the views (a record without a value: `null`).
pub(super) fn record_values(bytes: &[u8]) -> Vec<String> {
    let r = crate::decode::decode_bytes(bytes, &Default::default());
    r.batches.first().map_or_else(Vec::new, |b| {
        b.records.iter().map(|rec| rec.value.as_deref().map_or_else(|| String::from("null"), |v| String::from_utf8_lossy(v).into_owned())).collect()
    })
}

/// A partition leader's producer state for one question (issue 13, "Send to a leader"):
/// an entry for `producer_id` at `epoch` whose last batch carried sequences
/// `first_sequence..=last_sequence`, written from `base_offset` (0 when not given).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "camelCase", default))]
pub struct LeaderProducerState {
    pub producer_id: i64,
    pub epoch: i16,
    pub first_sequence: i32,
    pub last_sequence: i32,
    pub base_offset: Option<i64>,
}

/// "Send to a leader": the batch, the leader's state and the request's fields.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "camelCase", default))]
pub struct LeaderQuestion {
    /// The partition's name (`orders-0` when empty).
    pub partition: String,
    /// `None`: the leader holds no state for any producer.
    pub producer: Option<LeaderProducerState>,
    /// The Produce request's transactionalId (empty: null).
    pub transactional_id: String,
    /// The Produce version (12 when not given: a TV2 client's).
    pub version: Option<i16>,
    /// Send the batch with baseOffset 0, as a producer does (a batch copied out of a log
    /// segment carries the offset the log gave it, which the leader refuses from a client, B0).
    pub zero_base_offset: bool,
}

/// The leader's answer to `bytes` sent as a Produce (acks=-1) to a leader holding `q`'s
/// state: the same decision a `produce` line meets. Deterministic; any bytes are answered
/// (`Err` only for a state no leader could hold: a negative producer id, epoch or sequence).
pub fn send_to_leader(bytes: &[u8], q: &LeaderQuestion) -> Result<Reply, String> {
    let partition = if q.partition.trim().is_empty() { "orders-0" } else { q.partition.trim() };
    if partition.split_whitespace().count() != 1 {
        return Err(format!("partition {partition:?}: one word"));
    }
    let version = q.version.unwrap_or(12);
    if !(3..=20).contains(&version) {
        return Err(format!("Produce v{version}: a v2 batch is sent by Produce v3 and later"));
    }
    let mut w = World::new(1_700_000_000_000, 1000, super::ClusterConfig::default());
    w.add_partition(partition);
    if let Some(s) = &q.producer {
        w.idem.cluster.partitions[0].seed_producer(s.producer_id, s.epoch, s.first_sequence, s.last_sequence, s.base_offset.unwrap_or(0), w.idem.cluster.now_ms, None)?;
    }
    let mut bytes = bytes.to_vec();
    if q.zero_base_offset && bytes.len() >= 8 {
        bytes[..8].fill(0);
    }
    let req = Request::ProduceBytes { partition: String::from(partition), bytes, transactional_id: q.transactional_id.trim().to_string(), version };
    w.request(&req, "client")
}

impl Reply {
    fn new(api: &'static str, error: ErrorCode, rule: &'static str, source: &'static str, why: String) -> Reply {
        Reply { api, error: error.name().to_string(), error_code: error.0, rule, source, why, ..Default::default() }
    }
}

impl World {
    /// The lane a request's sender draws on (`producer:NAME`), registered for the views.
    fn request_lane(&mut self, from: &str) -> Name {
        if !self.request_senders.iter().any(|s| s == from) && !self.clients.iter().any(|c| c.name == from) && !self.is_idempotent_producer(from) {
            self.request_senders.push(String::from(from));
        }
        self.producer_lane(from)
    }

    /// The open transaction instance of `id` (or a new one for `from`'s requests).
    pub(super) fn instance_for(&mut self, id: &str, pid: i64, epoch: i16, from: &str) -> usize {
        if let Some(&t) = self.open_txn.get(id) {
            if self.txns[t].pid == pid {
                return t;
            }
        }
        self.txns.push(TxnInstance { transactional_id: id.into(), producer: from.into(), pid, epoch, ..Default::default() });
        let t = self.txns.len() - 1;
        self.open_txn.insert(Name::from(id), t);
        t
    }

    /// Send `req` from `from` (a lane name; `client` when the script gives none) and answer it.
    pub fn request(&mut self, req: &Request, from: &str) -> Result<Reply, String> {
        let lane = self.request_lane(from);
        match req {
            Request::InitProducerId { transactional_id: id, timeout_ms, current, empty_id, version, two_phase } => {
                let shown = if *empty_id { "\"\"" } else if id.is_empty() { "null" } else { id };
                msg!(self, lane.clone(), COORD_LANE, "InitProducerId", format!(
                    "InitProducerId{}(transactionalId={shown}, transactionTimeoutMs={timeout_ms}{}{})",
                    version.map_or(String::new(), |v| format!(" v{v}")),
                    current.map_or(String::new(), |(p, e)| format!(", producerId={p}, producerEpoch={e}")),
                    if *two_phase { ", keepPreparedTxn=true" } else { "" }
                ));
                if *two_phase {
                    // I13: KIP-939's flags are an unstable API in 4.3 (keepPreparedTxn: KAFKA-20739).
                    let why = String::from("keepPreparedTxn / enable2Pc (InitProducerId v6, KIP-939) are an unstable API in Kafka 4.3; the model does not guess their answer: OUTSIDE_MODEL");
                    self.outside_model = Some(why.clone());
                    let mut r = Reply::new("InitProducerId", ErrorCode::NONE, "I13", super::super::kafka_source::KIP_939, why);
                    r.error = String::from("OUTSIDE_MODEL");
                    r.error_code = -1;
                    self.reply_msg(lane, &r);
                    return Ok(r);
                }
                if id.is_empty() && !*empty_id {
                    // I1: an idempotent producer: a fresh id at epoch 0, nothing persisted.
                    let pid = self.idem.cluster.next_producer_id;
                    self.idem.cluster.next_producer_id += 1;
                    self.tick(0);
                    let mut r = Reply::new("InitProducerId", ErrorCode::NONE, "I1", INIT_PRODUCER_ID_WITHOUT_TRANSACTIONAL_ID, format!("no transactional.id: a fresh producer id {pid} at epoch 0 from the ProducerIdManager; nothing is written to __transaction_state"));
                    r.producer_id = Some(pid);
                    r.producer_epoch = Some(0);
                    self.reply_msg(lane, &r);
                    return Ok(r);
                }
                let new_pid = self.idem.cluster.next_producer_id;
                let a = self.coordinator.init_producer_id(id, *timeout_ms, *current, new_pid, self.idem.cluster.now_ms);
                if self.coordinator.get(id).is_some_and(|m| m.producer_id == new_pid) {
                    self.idem.cluster.next_producer_id += 1;
                }
                self.tick(if a.wrote.is_some() { 1 } else { 0 });
                if a.wrote.is_some() {
                    let r = self.write_txn_log(id);
                    let k = msg!(self, COORD_LANE, COORD_LANE, "append", format!("__transaction_state: {} for {id}", a.wrote.map_or("", |s| s.name())));
                    self.link(k, r);
                    // Every Java instance of the id holding the old epoch is fenced now.
                    self.fence_instances(id, None);
                }
                if a.rule == "I11" {
                    let (pid, epoch) = self.coordinator.get(id).map_or((-1, -1), |m| (m.producer_id, m.producer_epoch));
                    let t = self.instance_for(id, pid, epoch, from);
                    self.queue_markers(id, t, false);
                }
                // v0–3 clients know no PRODUCER_FENCED: it goes back as INVALID_PRODUCER_EPOCH
                // (KafkaApis.handleInitProducerIdRequest, KIP-588).
                let error = if version.is_some_and(|v| v < 4) && a.error == ErrorCode::PRODUCER_FENCED { ErrorCode::INVALID_PRODUCER_EPOCH } else { a.error };
                let mut r = Reply::new("InitProducerId", error, a.rule, a.source, a.why(id, &[]));
                if a.error == ErrorCode::NONE {
                    r.producer_id = Some(a.producer_id);
                    r.producer_epoch = Some(a.producer_epoch);
                }
                self.reply_msg(lane, &r);
                Ok(r)
            }
            Request::AddPartitionsToTxn { transactional_id: id, producer_id, epoch, partitions, verify_only, version } => {
                msg!(self, lane.clone(), COORD_LANE, "AddPartitionsToTxn", format!("AddPartitionsToTxn v{version}{}({id}, producer {producer_id} epoch {epoch}, {})", if *verify_only { " verifyOnly=true" } else { "" }, partitions.join(", ")));
                self.metric(super::Metric::AddPartitionsRequests, 1);
                if *verify_only {
                    // V3: each partition verified; nothing changes.
                    let mut worst = (ErrorCode::NONE, String::new());
                    let mut whys = Vec::new();
                    for p in partitions {
                        let v = self.verify(id, *producer_id, *epoch, p);
                        let (e, why) = (v.coordinator_error(), v.why(*producer_id, *epoch, id, p));
                        if e != ErrorCode::NONE && worst.0 == ErrorCode::NONE {
                            worst = (e, why.clone());
                        }
                        whys.push(format!("{p}: {}", if e == ErrorCode::NONE { String::from("NONE") } else { e.to_string() }));
                        let _ = why;
                    }
                    self.tick(0);
                    let r = Reply::new("AddPartitionsToTxn", worst.0, "V3", TRANSACTION_COORDINATOR, format!("verify only (handleVerifyPartitionsInTransaction): {}{}", whys.join(", "), if worst.1.is_empty() { String::new() } else { format!(" — {}", worst.1) }));
                    self.reply_msg(lane, &r);
                    return Ok(r);
                }
                let tv = if *version > 4 { Tv::Tv2 } else { Tv::Tv1 };
                let a = self.coordinator_add(id, *producer_id, *epoch, partitions, tv, from);
                let names: Vec<&str> = partitions.iter().map(String::as_str).collect();
                // v0–1 clients know no PRODUCER_FENCED: it goes back as INVALID_PRODUCER_EPOCH
                // (KafkaApis.handleAddPartitionsToTxnRequest, KIP-588).
                let error = if *version < 2 && a.error == ErrorCode::PRODUCER_FENCED { ErrorCode::INVALID_PRODUCER_EPOCH } else { a.error };
                let r = Reply::new("AddPartitionsToTxn", error, a.rule, a.source, a.why(id, &names));
                self.reply_msg(lane, &r);
                Ok(r)
            }
            Request::AddOffsetsToTxn { transactional_id: id, producer_id, epoch, group, version } => {
                // KafkaApis.handleAddOffsetsToTxnRequest: the AddPartitionsToTxn rules for the one
                // partition partitionFor(groupId) of __consumer_offsets.
                let part = Self::offsets_name(group);
                msg!(self, lane.clone(), COORD_LANE, "AddOffsetsToTxn", format!("AddOffsetsToTxn v{version}({id}, producer {producer_id} epoch {epoch}, group {group}: {part})"));
                self.metric(super::Metric::AddPartitionsRequests, 1);
                let a = self.coordinator_add(id, *producer_id, *epoch, core::slice::from_ref(&part), Tv::Tv1, from);
                // v0–1 clients know no PRODUCER_FENCED: it goes back as INVALID_PRODUCER_EPOCH.
                let error = if *version < 2 && a.error == ErrorCode::PRODUCER_FENCED { ErrorCode::INVALID_PRODUCER_EPOCH } else { a.error };
                let r = Reply::new("AddOffsetsToTxn", error, a.rule, a.source, format!("group {group} → {part}: {}", a.why(id, &[part.as_str()])));
                self.reply_msg(lane, &r);
                Ok(r)
            }
            Request::TxnOffsetCommit { .. } | Request::OffsetFetch { .. } => self.answer_group(req, from, lane),
            Request::EndTxn { transactional_id: id, producer_id, epoch, commit, version } => {
                let tv = if *version > 4 { Tv::Tv2 } else { Tv::Tv1 };
                msg!(self, lane.clone(), COORD_LANE, "EndTxn", format!("EndTxn v{version}({id}, producer {producer_id} epoch {epoch}, {})", if *commit { "COMMIT" } else { "ABORT" }));
                self.metric(super::Metric::EndTxnRequests, 1);
                let a = self.coordinator.end_txn_alloc(id, *producer_id, *epoch, *commit, tv, self.idem.cluster.now_ms, self.idem.cluster.next_producer_id);
                let ci = self.coordinator.index(id);
                if ci.is_some_and(|ci| self.coordinator.txns[ci].next_producer_id == self.idem.cluster.next_producer_id) {
                    self.idem.cluster.next_producer_id += 1;
                }
                self.tick(if a.wrote.is_some() { 1 } else { 0 });
                if a.wrote.is_some() {
                    let r = ci.and_then(|ci| self.write_txn_log_at(ci));
                    let k = msg!(self, COORD_LANE, COORD_LANE, "append", format!("__transaction_state: {} for {id} (K1)", a.wrote.map_or("", |s| s.name())));
                    self.link(k, r);
                    if let Some(ci) = ci {
                        let t = self.instance_for(id, *producer_id, *epoch, from);
                        let version = self.cluster.kafka.marker_version(tv == Tv::Tv2);
                        self.queue_markers_with(ci, t, *commit, version);
                    }
                }
                // v0–1 clients know no PRODUCER_FENCED: it goes back as INVALID_PRODUCER_EPOCH
                // (KafkaApis.handleEndTxnRequest, KIP-588).
                let error = if *version < 2 && a.error == ErrorCode::PRODUCER_FENCED { ErrorCode::INVALID_PRODUCER_EPOCH } else { a.error };
                let mut r = Reply::new("EndTxn", error, a.rule, a.source, a.why(id, &[]));
                if a.error == ErrorCode::NONE && tv == Tv::Tv2 && a.producer_id >= 0 {
                    r.producer_id = Some(a.producer_id);
                    r.producer_epoch = Some(a.producer_epoch);
                }
                self.reply_msg(lane, &r);
                Ok(r)
            }
            Request::WriteTxnMarkers { partition, producer_id, epoch, commit, coordinator_epoch, tv2, more } => {
                let mut pis = alloc::vec![self.partition_index(partition)?];
                for p in more {
                    pis.push(self.partition_index(p)?);
                }
                if *tv2 && !self.cluster.kafka.has_markers_v2() {
                    return Err(format!(
                        "a Kafka {} broker speaks WriteTxnMarkers v1 only (v2, which carries tv=2, is KIP-1228, Kafka 4.2+): send tv=1, which its leaders check by M1",
                        self.cluster.kafka.name()
                    ));
                }
                let names: Vec<&str> = core::iter::once(partition.as_str()).chain(more.iter().map(String::as_str)).collect();
                msg_rule!(self, lane.clone(), self.partition_lane(partition), "WriteTxnMarkers", format!("WriteTxnMarkers({}, producer {producer_id} epoch {epoch}, coordinator epoch {coordinator_epoch}, {}, TransactionVersion {}) from outside the coordinator's pipeline", if *commit { "COMMIT" } else { "ABORT" }, names.join(", "), if *tv2 { 2 } else { 1 }), "K7", TRANSACTION_MARKER_CHANNEL_MANAGER, ErrorCode::NONE);
                self.metric(super::Metric::WriteTxnMarkersRequests, 1);
                // The transaction the marker closes here: the instance with this producer's
                // open records on the partition, or the id's open one, or a new one.
                let t = self
                    .txns
                    .iter()
                    .rposition(|x| x.pid == *producer_id && x.outcome.is_none())
                    .unwrap_or_else(|| {
                        self.txns.push(TxnInstance { producer: Name::from(from), pid: *producer_id, epoch: *epoch, ..Default::default() });
                        self.txns.len() - 1
                    });
                self.tick(1);
                // Each partition's leader decides its marker (M1–M6); the answer has one error per
                // partition (WriteTxnMarkersResponse). One partition: the reply is its answer.
                let mut replies: Vec<Reply> = Vec::new();
                for (&pi, &name) in pis.iter().zip(&names) {
                    let m = MarkerReq {
                        transactional_id: self.txns[t].transactional_id.clone(),
                        txn: t,
                        pid: *producer_id,
                        epoch: *epoch,
                        commit: *commit,
                        coordinator_epoch: *coordinator_epoch,
                        partition: self.partition_names(pi).0,
                        version: if *tv2 { MarkerVersion::Tv2 } else { MarkerVersion::Tv1 },
                        held: false,
                    };
                    let before = self.idem.cluster.partitions[pi].log_end_offset;
                    let d = self.idem.cluster.partitions[pi].append_marker_verdict(m.pid, m.epoch, m.commit, m.coordinator_epoch, m.version, self.idem.cluster.now_ms);
                    let mut r = Reply::new("WriteTxnMarkers", d.error(), d.rule(), d.source(), d.why(name));
                    if let Outcome::Appended { base_offset, .. } = d.outcome() {
                        r.outcome = Some(String::from("appended"));
                        r.offsets = Some((base_offset, base_offset));
                        self.record_marker(pi, &m, base_offset);
                    } else {
                        r.outcome = Some(String::from("rejected"));
                        debug_assert_eq!(before, self.idem.cluster.partitions[pi].log_end_offset);
                    }
                    if !more.is_empty() {
                        self.reply_msg_from(self.partition_lane(name), lane.clone(), &r);
                    }
                    replies.push(r);
                }
                if more.is_empty() {
                    let r = replies.remove(0);
                    self.reply_msg_from(self.partition_lane(partition), lane, &r);
                    return Ok(r);
                }
                // Several: the first refusal (or the first answer) stands for the request, each
                // partition's error and marker offset are in `partitions`.
                let partitions: Vec<(String, String, Option<i64>)> = names.iter().zip(&replies).map(|(n, r)| (n.to_string(), r.error.clone(), r.offsets.map(|o| o.0))).collect();
                let k = replies.iter().position(|r| r.error_code != 0).unwrap_or(0);
                let mut r = replies.swap_remove(k);
                r.partitions = partitions;
                Ok(r)
            }
            Request::Produce { partition, producer_id, epoch, base_sequence, transactional, transactional_id: id, version, values } => {
                let pi = self.partition_index(partition)?;
                let plane = self.partition_lane(partition);
                msg!(self, lane.clone(), plane.clone(), "Produce", format!("Produce v{version}{} batch: producer {producer_id} epoch {epoch}, sequences {base_sequence}..{}, {} record(s){}", if *transactional { " transactional" } else { "" }, base_sequence.wrapping_add(values.len() as i32 - 1), values.len(), if id.is_empty() { String::new() } else { format!(", transactionalId={id}") }));
                let bytes = data_batch(*producer_id, *epoch, *base_sequence, *transactional, values, self.idem.cluster.now_ms);
                let hex = crate::report::to_hex(&bytes);
                let sent = Sent { partition, producer_id: *producer_id, epoch: *epoch, transactional: *transactional, id, version: *version, values };
                let r = self.produce(pi, plane, lane, bytes, &sent, from)?;
                return Ok(Reply { batch: Some(hex), ..r });
            }
            Request::ProduceBytes { partition, bytes, transactional_id: id, version } => {
                let pi = self.partition_index(partition)?;
                let plane = self.partition_lane(partition);
                let hex = crate::report::to_hex(bytes);
                let framed = frame_one_batch(bytes, *version);
                // The header's fields where a whole v2 header was sent (else what the leader
                // never gets to read).
                let head = crate::batch::Batch::new_checked(&bytes[..]).ok().filter(|b| b.magic() == 2);
                let (pid, epoch, seq, count, txn) = head.as_ref().map_or((-1, -1, -1, 0, false), |b| (b.producer_id(), b.producer_epoch(), b.base_sequence(), b.records_count(), b.attributes().is_transactional()));
                msg!(
                    self,
                    lane.clone(),
                    plane.clone(),
                    "Produce",
                    if head.is_some() {
                        format!("Produce v{version} of {} byte(s): a {}batch of producer {pid} epoch {epoch}, sequences {seq}..{}, {count} record(s){}", bytes.len(), if txn { "transactional " } else { "" }, crate::sequence::increment(seq, count.wrapping_sub(1)), if id.is_empty() { String::new() } else { format!(", transactionalId={id}") })
                    } else {
                        format!("Produce v{version} of {} byte(s)", bytes.len())
                    }
                );
                // KafkaApis refuses a request whose first batch is transactional and that names no
                // transactionalId before it validates any partition's records (C0g, in `produce`).
                let len = match framed {
                    Err(f) if !(txn && id.is_empty() && f.after_first) => {
                        self.tick(0);
                        let mut r = Reply::new("Produce", f.error, if f.error == ErrorCode::CORRUPT_MESSAGE { "B1" } else { "B0" }, f.source, format!("byte {}: {}", f.at, f.why));
                        r.outcome = Some(String::from("rejected"));
                        r.byte_offset = Some(f.at);
                        r.batch = Some(hex);
                        self.reply_msg_from(plane, lane, &r);
                        return Ok(r);
                    }
                    Err(f) => f.first_len,
                    Ok(len) => len,
                };
                let sent_bytes = bytes[..len].to_vec();
                let values = record_values(&sent_bytes);
                let sent = Sent { partition, producer_id: pid, epoch, transactional: txn, id, version: *version, values: &values };
                let mut r = self.produce(pi, plane, lane, sent_bytes, &sent, from)?;
                // The leader's own refusals of the batch (B0–B4), with the byte they are about.
                r.byte_offset = match r.rule {
                    "B0" => Some(0),
                    "B1" if len < crate::batch::HEADER_LEN => Some(8),
                    "B1" => Some(17),
                    "B2" => Some(57),
                    "B3" => Some(21),
                    "B4" => Some(53),
                    _ => None,
                };
                if let Some(at) = r.byte_offset {
                    r.why = format!("byte {at}: {}", r.why);
                }
                if len < bytes.len() && r.rule != "C0g" {
                    r.why.push_str(&format!(" ({} byte(s) after the batch frame no batch: UnifiedLog.trimInvalidBytes drops them)", bytes.len() - len));
                }
                return Ok(Reply { batch: Some(hex), ..r });
            }
            _ => self.answer_other(req, from, lane),
        }
    }

    /// [`World::request`] for a Produce.
    fn produce(&mut self, pi: usize, plane: Name, lane: Name, bytes: Vec<u8>, sent: &Sent<'_>, from: &str) -> Result<Reply, String> {
        let before = self.messages.len();
        let mut r = self.produce_now(pi, plane, lane.clone(), bytes, sent, from)?;
        self.maybe_hold(pi, &mut r, before, lane);
        Ok(r)
    }

    /// The leader's decision on a Produce, answered at once ([`World::produce`] holds it when
    /// acks=-1 must wait for the HW).
    fn produce_now(&mut self, pi: usize, plane: Name, lane: Name, bytes: Vec<u8>, sent: &Sent<'_>, from: &str) -> Result<Reply, String> {
        let Sent { partition, producer_id, epoch, transactional, id, version, values } = sent;
        if *transactional {
            if id.is_empty() {
                // C0g: a transactional batch needs the request's transactionalId.
                self.tick(0);
                let mut r = Reply::new("Produce", ErrorCode(53), "C0g", KAFKA_APIS_PRODUCE, String::from("a Produce with transactional records and no transactionalId is refused as a whole: TRANSACTIONAL_ID_AUTHORIZATION_FAILED"));
                r.outcome = Some(String::from("rejected"));
                self.reply_msg_from(plane, lane, &r);
                return Ok(r);
            }
            let t = self.instance_for(id, *producer_id, *epoch, from);
            let before = self.messages.len();
            let end_before = self.idem.cluster.partitions[pi].log_end_offset;
            let res = self.leader_append(pi, bytes, super::SupportedOperation::of_produce(*version), t, values);
            // The leader's own messages say why; the reply repeats the last one's rule.
            let last = self.messages[before.min(self.messages.len())..].iter().rev().find(|m| m.kind == "response" && m.to == lane).map(|m| (m.rule, m.source, m.text.clone()));
            let (rule, source, why) = last.map_or(("", "", String::new()), |(r, s, t)| (r.unwrap_or(""), s.unwrap_or(""), t));
            let mut r = match res {
                Ok(k) => {
                    if !self.txns[t].records.contains(&k) {
                        self.txns[t].records.push(k);
                    }
                    let rec = &self.records[k];
                    let dup = self.idem.cluster.partitions[pi].log_end_offset == end_before;
                    let mut r = Reply::new("Produce", ErrorCode::NONE, rule, source, why);
                    r.outcome = Some(String::from(if dup { "duplicate" } else { "appended" }));
                    r.offsets = Some((rec.offset, rec.last_offset));
                    r
                }
                Err(e) => {
                    let mut r = Reply::new("Produce", e, rule, source, why);
                    r.outcome = Some(String::from("rejected"));
                    r
                }
            };
            if !self.trace {
                r.why.clear();
            }
            return Ok(r);
        }
        let d = self.idem.cluster.partitions[pi].append_client_verdict(&bytes);
        self.tick(1);
        let mut r = Reply::new("Produce", d.error(), d.rule(), d.source(), d.why(partition));
        match d.outcome() {
            o @ (Outcome::Appended { base_offset, last_offset } | Outcome::Duplicate { base_offset, last_offset }) => {
                let appended = matches!(o, Outcome::Appended { .. });
                r.outcome = Some(String::from(if appended { "appended" } else { "duplicate" }));
                r.offsets = Some((base_offset, last_offset));
                // A duplicate (A1) wrote nothing: the answer points at the original batch, or at
                // nothing when that batch is one a `producer-state` line seeded (the log holds no
                // record for it; Kafka's answer to it adds none either).
                if !appended {
                    let k = self.record_at(pi, base_offset);
                    let m = self.reply_msg_from(plane, lane, &r);
                    self.link(m, k);
                    return Ok(r);
                }
                let log = &self.idem.cluster.partitions[pi];
                let stored = if appended { as_stored(bytes, log) } else { log.log.last().map(|e| e.bytes.clone()).unwrap_or_default() };
                let k = self.push_data_record(pi, (base_offset, last_offset), (*producer_id, *epoch), values, stored, None);
                let m = self.reply_msg_from(plane, lane, &r);
                self.link(m, Some(k));
            }
            _ => {
                r.outcome = Some(String::from("rejected"));
                self.reply_msg_from(plane, lane, &r);
            }
        }
        Ok(r)
    }

    /// [`World::request`] for the read-side requests.
    fn answer_other(&mut self, req: &Request, _from: &str, lane: Name) -> Result<Reply, String> {
        match req {
            Request::Fetch { partition, read_committed, from_offset } => {
                let pi = self.partition_index(partition)?;
                let plane = self.partition_lane(partition);
                let iso = if *read_committed { Isolation::ReadCommitted } else { Isolation::ReadUncommitted };
                msg!(self, lane.clone(), plane.clone(), "Fetch", format!("Fetch({partition}, fetchOffset {from_offset}, {})", if *read_committed { "READ_COMMITTED" } else { "READ_UNCOMMITTED" }));
                self.tick(0);
                let p = &self.idem.cluster.partitions[pi];
                let (hw, lso) = (p.high_watermark(), p.last_stable_offset());
                let a = p.fetch_answer(iso, *from_offset);
                let mut r = if a.error != ErrorCode::NONE {
                    Reply::new("Fetch", a.error, "L4", REPLICA_MANAGER_READ_FROM_LOG, format!("fetchOffset {from_offset} is outside the log [0, {hw}]: OFFSET_OUT_OF_RANGE"))
                } else {
                    let mut r = Reply::new(
                        "Fetch",
                        ErrorCode::NONE,
                        "L4",
                        REPLICA_MANAGER_READ_FROM_LOG,
                        format!(
                            "{}: records from {from_offset} below {} ({}); highWatermark {hw}, lastStableOffset {lso}{}",
                            if *read_committed { "read_committed" } else { "read_uncommitted" },
                            if *read_committed { "the LSO" } else { "the HW" },
                            a.upper,
                            match &a.aborted {
                                Some(list) => format!(", abortedTransactions [{}]", list.iter().map(|(p, f)| format!("producer {p} from {f}")).collect::<Vec<_>>().join(", ")),
                                None => String::from(", abortedTransactions null"),
                            }
                        ),
                    );
                    r.records = a.records;
                    r.aborted = a.aborted;
                    r
                };
                // A partition answered with an error carries no offsets: highWatermark and
                // lastStableOffset −1 (`FetchResponse.partitionResponse`, seen on Kafka 4.3.1).
                r.high_watermark = Some(a.high_watermark);
                r.last_stable_offset = Some(a.last_stable_offset);
                self.reply_msg_from(plane, lane, &r);
                Ok(r)
            }
            Request::ListOffsets { partition, read_committed } => {
                let pi = self.partition_index(partition)?;
                let plane = self.partition_lane(partition);
                msg!(self, lane.clone(), plane.clone(), "ListOffsets", format!("ListOffsets({partition}, LATEST, {})", if *read_committed { "READ_COMMITTED" } else { "READ_UNCOMMITTED" }));
                self.tick(0);
                let p = &self.idem.cluster.partitions[pi];
                let (hw, lso) = (p.high_watermark(), p.last_stable_offset());
                let offset = if *read_committed { lso } else { hw };
                let mut r = Reply::new("ListOffsets", ErrorCode::NONE, "L5", REPLICA_MANAGER_OFFSET_FOR_TIMESTAMP, format!("LATEST for {} is {} = {offset}", if *read_committed { "read_committed" } else { "read_uncommitted" }, if *read_committed { "the last stable offset" } else { "the high watermark" }));
                r.offset = Some(offset);
                r.high_watermark = Some(hw);
                r.last_stable_offset = Some(lso);
                let _ = FIRST_UNSTABLE_OFFSET_SNAPSHOT;
                self.reply_msg_from(plane, lane, &r);
                Ok(r)
            }
            Request::FindCoordinator { group, key } => {
                let n = if *group { CONSUMER_OFFSETS_PARTITIONS } else { TRANSACTION_STATE_PARTITIONS };
                let topic = if *group { "__consumer_offsets" } else { "__transaction_state" };
                msg!(self, lane.clone(), COORD_LANE, "FindCoordinator", format!("FindCoordinator({}, {key})", if *group { "GROUP" } else { "TRANSACTION" }));
                self.tick(0);
                let h = coordinator::java_string_hash(key);
                let part = coordinator::partition_for(key, n);
                let mut r = Reply::new(
                    "FindCoordinator",
                    ErrorCode::NONE,
                    if *group { "H2" } else { "H1" },
                    if *group { GROUP_COORDINATOR_PARTITION_FOR } else { TRANSACTION_COORDINATOR_PARTITION_FOR },
                    format!("Utils.abs(\"{key}\".hashCode() = {h}) % {n} = {part}: the leader of {topic}-{part} is the coordinator{}", if *group { String::new() } else { format!(" (coordinator epoch {})", self.coordinator_epoch) }),
                );
                r.coordinator_partition = Some(part);
                r.hash = Some(h);
                self.reply_msg(lane, &r);
                Ok(r)
            }
            _ => Err(format!("{} is not a read-side request", req.api())),
        }
    }

    /// The coordinator's add of `partitions` (AP1–AP8): the answer, with its
    /// `__transaction_state` write and `from`'s transaction instance when it wrote.
    fn coordinator_add(&mut self, id: &str, pid: i64, epoch: i16, partitions: &[String], tv: Tv, from: &str) -> coordinator::Answer {
        let parts: Vec<Name> = partitions.iter().map(|p| Name::from(p.as_str())).collect();
        let a = self.coordinator.add_partitions_v(id, pid, epoch, &parts, self.idem.cluster.now_ms, tv);
        self.tick(if a.wrote.is_some() { 1 } else { 0 });
        if a.wrote.is_some() {
            let r = self.write_txn_log(id);
            let k = msg!(self, COORD_LANE, COORD_LANE, "append", format!("__transaction_state: Ongoing with {}", partitions.join(", ")));
            self.link(k, r);
            self.instance_for(id, pid, epoch, from);
        }
        a
    }

    /// [`World::request`] for the group coordinator's requests: TxnOffsetCommit (§3.7, G1–G4)
    /// and OffsetFetch (G5).
    fn answer_group(&mut self, req: &Request, from: &str, lane: Name) -> Result<Reply, String> {
        match req {
            Request::TxnOffsetCommit { transactional_id: id, producer_id, epoch, group, generation, member, instance, version, offsets } => {
                let (pid, epoch) = (*producer_id, *epoch);
                let part = Self::offsets_name(group);
                let n = Self::offsets_partition(group);
                msg!(
                    self,
                    lane.clone(),
                    OFFSETS_LANE,
                    "TxnOffsetCommit",
                    format!(
                        "TxnOffsetCommit v{version}({id}, group {group}, generation {generation}, member {member:?}{}, producer {pid} epoch {epoch}: {})",
                        instance.as_ref().map_or(String::new(), |x| format!(", groupInstanceId {x}")),
                        offsets.iter().map(|(p, o)| format!("{p}={o}")).collect::<Vec<_>>().join(", ")
                    )
                );
                let op = super::SupportedOperation::of_txn_offset_commit(*version);
                let answer = |error: ErrorCode, rule: &'static str, source: &'static str, why: String| {
                    let mut r = Reply::new("TxnOffsetCommit", error, rule, source, why);
                    r.partitions = offsets.iter().map(|(p, _)| (p.clone(), error.name().to_string(), None)).collect();
                    r
                };
                // G3: before the write (CoordinatorRuntime.scheduleTransactionalWriteOperation) the
                // partition is added to the transaction (v5, TV2) or verified to be in it (v4) —
                // unless the producer already has a transaction open on it at this epoch (V1:
                // then nobody asks the coordinator, even while it completes the transaction).
                let open = self.offsets_logs.get(&n).and_then(|l| l.producers.get(&pid)).is_some_and(|e| e.producer_epoch == epoch && e.current_txn_first_offset.is_some());
                if open {
                    msg_rule!(self, OFFSETS_LANE, OFFSETS_LANE, "verification", format!("producer {pid} has a transaction open on {part} at epoch {epoch}: no verification, no add"), "V1", TRANSACTION_COORDINATOR, ErrorCode::NONE);
                } else if op == super::SupportedOperation::AddPartition {
                    self.metric(super::Metric::AddPartitionsRequests, 1);
                    let a = self.coordinator_add(id, pid, epoch, core::slice::from_ref(&part), Tv::Tv2, from);
                    msg_rule!(self, OFFSETS_LANE, COORD_LANE, "AddPartitionsToTxn", format!("the group coordinator adds {part} to {id}: {}", a.why(id, &[part.as_str()])), "G3", a.source, a.error);
                    let e = super::leader_add_error(a.error);
                    if e != ErrorCode::NONE {
                        let r = answer(e, "G3", a.source, format!("the add of {part} (TxnOffsetCommit v5) failed: {}{}", a.why(id, &[part.as_str()]), if e != a.error { format!(" ({} goes back as {e}, V5)", a.error) } else { String::new() }));
                        self.reply_msg_from(OFFSETS_LANE, lane, &r);
                        return Ok(r);
                    }
                } else if let Some((e, why)) = self.verify_offsets_write(id, pid, epoch, &part, op, *version) {
                    let r = answer(e, "G3", TRANSACTION_COORDINATOR, why);
                    self.reply_msg_from(OFFSETS_LANE, lane, &r);
                    return Ok(r);
                }
                // G1/G2: the group's fields.
                let gi = match self.validate_txn_offset_commit(group, *generation, member, instance.as_deref()) {
                    Ok((gi, _)) => gi,
                    Err(g) => {
                        self.tick(0);
                        let r = answer(g.error, g.rule, OFFSET_METADATA_MANAGER, g.why);
                        self.reply_msg_from(OFFSETS_LANE, lane, &r);
                        return Ok(r);
                    }
                };
                // G4: the offsets, pending until the marker.
                let t = self.instance_for(id, pid, epoch, from);
                let r = match self.write_pending_offsets(gi, pid, epoch, offsets, t) {
                    Ok(k) => {
                        let r = answer(ErrorCode::NONE, "G4", OFFSET_METADATA_MANAGER, format!("written to {part} as transactional records of producer {pid}: pending until the COMMIT marker reaches {part} (an ABORT drops them)"));
                        let m = self.reply_msg_from(OFFSETS_LANE, lane, &r);
                        self.link(m, Some(k));
                        r
                    }
                    Err(d) => {
                        let r = answer(d.error(), d.rule, d.source, d.why);
                        self.reply_msg_from(OFFSETS_LANE, lane, &r);
                        r
                    }
                };
                Ok(r)
            }
            Request::OffsetFetch { group, require_stable, partitions } => {
                msg!(self, lane.clone(), OFFSETS_LANE, "OffsetFetch", format!("OffsetFetch({group}{}, {})", if *require_stable { ", requireStable" } else { "" }, partitions.join(", ")));
                self.tick(0);
                let g = self.groups.iter().find(|g| g.name == *group);
                let answers: Vec<(String, super::OffsetFetch)> = partitions.iter().map(|p| (p.clone(), g.map_or(Ok(None), |g| g.fetch_offset(p, *require_stable)))).collect();
                let first_error = answers.iter().find_map(|(_, a)| a.err()).unwrap_or(ErrorCode::NONE);
                let text = |a: &super::OffsetFetch| match a {
                    Err(e) => e.to_string(),
                    Ok(o) => o.map_or(String::from("none"), |o| o.to_string()),
                };
                let why = format!(
                    "{}{}",
                    answers.iter().map(|(p, a)| format!("{p}: {}", text(a))).collect::<Vec<_>>().join(", "),
                    if first_error == ErrorCode::UNSTABLE_OFFSET_COMMIT {
                        " — requireStable: a transactional commit of that offset is pending until its marker (retriable)"
                    } else if g.is_none() {
                        " — no such group: no offsets"
                    } else {
                        ""
                    }
                );
                let mut r = Reply::new("OffsetFetch", first_error, "G5", OFFSET_METADATA_MANAGER, why);
                r.partitions = answers.iter().map(|(p, a)| (p.clone(), a.err().unwrap_or(ErrorCode::NONE).name().to_string(), a.ok().flatten())).collect();
                if let [(_, Ok(o))] = answers.as_slice() {
                    r.offset = *o;
                }
                self.reply_msg_from(OFFSETS_LANE, lane, &r);
                Ok(r)
            }
            _ => Err(format!("{} is not a group coordinator request", req.api())),
        }
    }

    /// G3 for a TV1 client's TxnOffsetCommit (v0–v4, `op` its supported operation) whose producer
    /// has no transaction open on the group's partition `part` at this epoch: the partition is
    /// verified to be in the transaction (`CoordinatorPartitionWriter.maybeStartTransactionVerification`,
    /// verifyOnly) when transaction.partition.verification.enable is on; off, the offsets are
    /// written without asking (V1: the epoch checks of the partition's producer state still
    /// apply). `Some((error, why))` when the write is refused.
    pub(super) fn verify_offsets_write(&mut self, id: &str, pid: i64, epoch: i16, part: &str, op: super::SupportedOperation, version: i16) -> Option<(ErrorCode, String)> {
        if self.cluster.verification_disabled {
            msg_rule!(self, OFFSETS_LANE, OFFSETS_LANE, "verification", format!("transaction.partition.verification.enable=false: producer {pid}'s offsets are written to {part} without asking the coordinator"), "V1", REPLICA_MANAGER_VERIFICATION, ErrorCode::NONE);
            return None;
        }
        let v = self.verify(id, pid, epoch, part);
        self.tick(0);
        // The coordinator's own answer (V3) with AddPartitionsToTxnManager's mapping only
        // (PRODUCER_FENCED → INVALID_PRODUCER_EPOCH): the NOT_ENOUGH_REPLICAS a Produce gets for
        // CONCURRENT_TRANSACTIONS is ReplicaManager's, for old producers, and the group
        // coordinator answers 51 as it is (Kafka 4.3.1).
        let e = op.map(v.coordinator_error());
        if e == ErrorCode::NONE {
            return None;
        }
        let why = match v {
            super::Verify::Completing => String::from("the transaction is completing (PrepareCommit/PrepareAbort): CONCURRENT_TRANSACTIONS, retriable"),
            _ => v.why(pid, epoch, id, part),
        };
        // Only DEFAULT_ERROR's TRANSACTION_ABORTABLE → INVALID_TXN_STATE is worth saying.
        let mapped = if v.coordinator_error() == ErrorCode::TRANSACTION_ABORTABLE && e != ErrorCode::TRANSACTION_ABORTABLE {
            format!(" ({} goes back as {e} to a TxnOffsetCommit older than v4, V5)", v.coordinator_error())
        } else {
            String::new()
        };
        Some((e, format!("verification of {part} (TxnOffsetCommit v{version}, verifyOnly): {why}{mapped}")))
    }

    /// V3's decision for one partition (`handleVerifyPartitionsInTransaction`): the leader's
    /// question for a TV1 client's batch, and the `verify-only` request's.
    pub(super) fn verify(&self, id: &str, pid: i64, epoch: i16, pname: &str) -> super::Verify {
        use super::Verify;
        match self.coordinator.get(id) {
            None => Verify::NoState,
            Some(m) if m.producer_id != pid => Verify::NotOwner,
            Some(m) if m.producer_epoch != epoch => Verify::Fenced(m.producer_epoch),
            Some(m) if matches!(m.state, TxnState::PrepareCommit | TxnState::PrepareAbort) => Verify::Completing,
            Some(m) if m.partitions.contains(pname) => Verify::Added,
            Some(_) => Verify::NotAdded,
        }
    }

    /// The coordinator's reply to `to`, as a message.
    fn reply_msg(&mut self, to: Name, r: &Reply) -> usize {
        self.reply_msg_from(COORD_LANE, to, r)
    }

    fn reply_msg_from(&mut self, from: Name, to: Name, r: &Reply) -> usize {
        if !self.trace {
            return usize::MAX;
        }
        let e = ErrorCode(r.error_code);
        self.push_msg(from, to, "response", format!("{} response {}: {}", r.api, e, r.why), Some(r.rule), Some(r.source), e)
    }
}

impl Reply {
    /// `expect LABEL …` on a request's answer; `Some(what it got)` when it does not hold.
    ///
    /// `error NAME|N`, `rule R`, `pid N`, `epoch E` (or `pid N epoch E`), `appended|duplicate [A..B]`,
    /// `rejected NAME`, `offsets A..B`, `offset N` (ListOffsets), `hw N`, `lso N`,
    /// `aborted PID@FIRST …|none|null` (Fetch's abortedTransactions), `records V …` (Fetch),
    /// `partition N` (FindCoordinator), `offset PART N|none` / `error PART NAME|N` (one partition's
    /// answer to TxnOffsetCommit or OffsetFetch).
    pub fn check(&self, w: &[&str]) -> Option<String> {
        let r = self;
        let err_is = |e: &str| e == r.error || e.parse::<i16>().ok() == Some(r.error_code);
        let got_err = || format!("{}({})", r.error, r.error_code);
        let opt = |v: Option<i64>| v.map_or(String::from("none"), |x| x.to_string());
        let range = |o: Option<(i64, i64)>| o.map_or(String::from("none"), |(a, b)| format!("{a}..{b}"));
        let part = |p: &str| r.partitions.iter().find(|x| x.0 == p);
        match w {
            ["error", e] => (!err_is(e)).then(got_err),
            ["error", p, e] => match part(p) {
                None => Some(format!("no answer for {p}")),
                Some((_, got, _)) => {
                    let code = crate::model::errors::ErrorCode::from_name(got).map(|c| c.0);
                    (got != e && e.parse::<i16>().ok().is_none_or(|n| Some(n) != code)).then(|| got.clone())
                }
            },
            ["offset", p, x] => match part(p) {
                None => Some(format!("no answer for {p}")),
                Some((_, e, o)) => (opt(*o) != *x || e != "NONE").then(|| if e != "NONE" { e.clone() } else { opt(*o) }),
            },
            ["rule", x] => (r.rule != *x).then(|| r.rule.to_string()),
            ["waiting"] => r.waiting_for_hw.is_none().then(|| format!("answered {}", got_err())),
            ["waiting", "for", "hw", x] => (opt(r.waiting_for_hw) != *x).then(|| opt(r.waiting_for_hw)),
            ["pid", p, "epoch", e] => {
                let got = format!("pid {} epoch {}", opt(r.producer_id), opt(r.producer_epoch.map(i64::from)));
                (got != format!("pid {p} epoch {e}")).then_some(got)
            }
            ["pid", p] => (opt(r.producer_id) != *p).then(|| opt(r.producer_id)),
            ["epoch", e] => (opt(r.producer_epoch.map(i64::from)) != *e).then(|| opt(r.producer_epoch.map(i64::from))),
            [o @ ("appended" | "duplicate"), rest @ ..] => {
                let got = format!("{} {}", r.outcome.as_deref().unwrap_or("no outcome"), range(r.offsets));
                let ok = r.outcome.as_deref() == Some(*o) && rest.first().is_none_or(|x| *x == range(r.offsets));
                (!ok).then(|| if r.error_code != 0 { got_err() } else { got })
            }
            ["rejected", e] => (r.outcome.as_deref() != Some("rejected") || !err_is(e)).then(|| format!("{} {}", r.outcome.as_deref().unwrap_or("no outcome"), got_err())),
            ["offsets", x] => (range(r.offsets) != *x).then(|| range(r.offsets)),
            ["offset", x] => (opt(r.offset) != *x).then(|| opt(r.offset)),
            ["hw", x] => (opt(r.high_watermark) != *x).then(|| opt(r.high_watermark)),
            ["lso", x] => (opt(r.last_stable_offset) != *x).then(|| opt(r.last_stable_offset)),
            ["partition", x] => (opt(r.coordinator_partition.map(i64::from)) != *x).then(|| opt(r.coordinator_partition.map(i64::from))),
            ["aborted", xs @ ..] => {
                let got = match &r.aborted {
                    None => String::from("null"),
                    Some(a) if a.is_empty() => String::from("none"),
                    Some(a) => a.iter().map(|(p, f)| format!("{p}@{f}")).collect::<Vec<_>>().join(" "),
                };
                (got != xs.join(" ")).then_some(got)
            }
            ["records", xs @ ..] => {
                let got: Vec<String> = r.records.iter().map(|(_, v)| v.clone().unwrap_or_else(|| String::from("null"))).collect();
                let got = if got.is_empty() { String::from("nothing") } else { got.join(" ") };
                (got != xs.join(" ")).then_some(got)
            }
            _ => Some(String::from("unknown expect on an answer (error, rule, waiting, pid, epoch, appended, duplicate, rejected, offsets, offset, hw, lso, aborted, records, partition, offset PART, error PART)")),
        }
    }
}

#[cfg(test)]
mod tests;
