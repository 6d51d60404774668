//! Requests sent straight to the cluster ("ask the cluster directly"): a script line
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
//! find-coordinator transaction app                                  # H1, H2 for a group
//! add-offsets-to-txn transactional.id=app pid=1000 epoch=0 group=g [v=4]   # AP1–AP8 for __consumer_offsets-N
//! txn-offset-commit transactional.id=app pid=1000 epoch=0 group=g [generation=-1] [member=ID]
//!     [group-instance-id=ID] [v=5] orders-0=3 …                     # G3, G1/G2, G4
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

/// A partition leader's producer state for one question ("Send to a leader"):
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

mod answer;

#[cfg(test)]
mod tests;
