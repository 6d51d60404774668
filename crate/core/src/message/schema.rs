//! Kafka's message schemas as static tables: `build.rs` generates [`MESSAGES`] from the vendored
//! `messages/*.json` (Apache Kafka 4.3.1, see `messages/PROVENANCE`). The shape mirrors Kafka's
//! generator (`generator/src/main/java/org/apache/kafka/message/FieldSpec.java`): each field has its
//! `versions`, `nullableVersions`, `taggedVersions` + `tag`, an optional field-level
//! `flexibleVersions` (only `ClientId` of the request header uses it: always a classic string), and
//! for struct types (inline or from `commonStructs`) its fields.

/// A version range `lo..=hi` (`Versions.java`); empty (`none`) when `lo > hi`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Versions {
    pub lo: i16,
    pub hi: i16,
}

impl Versions {
    pub const fn contains(self, v: i16) -> bool {
        self.lo <= v && v <= self.hi
    }
}

/// A field's type (`FieldType.java`); `Struct` has [`FieldDef::fields`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Type {
    Bool,
    Int8,
    Int16,
    Uint16,
    Int32,
    Uint32,
    Int64,
    Float64,
    Uuid,
    String,
    Bytes,
    Records,
    Struct,
}

impl Type {
    /// The schema's spelling (`int32`, `records` …; `struct` for struct types).
    pub const fn name(self) -> &'static str {
        match self {
            Type::Bool => "bool",
            Type::Int8 => "int8",
            Type::Int16 => "int16",
            Type::Uint16 => "uint16",
            Type::Int32 => "int32",
            Type::Uint32 => "uint32",
            Type::Int64 => "int64",
            Type::Float64 => "float64",
            Type::Uuid => "uuid",
            Type::String => "string",
            Type::Bytes => "bytes",
            Type::Records => "records",
            Type::Struct => "struct",
        }
    }
}

#[derive(Debug)]
pub struct FieldDef {
    /// `FieldSpec.camelCaseName`: the key Kafka's JSON converters use (`highWatermark`).
    pub name: &'static str,
    pub ty: Type,
    /// `[]T`: an array of `ty`.
    pub array: bool,
    pub versions: Versions,
    pub nullable: Versions,
    pub tagged: Versions,
    /// The tag, when `tagged` is not empty (`u32::MAX` otherwise).
    pub tag: u32,
    /// Field-level `flexibleVersions` (overrides the message's, for strings and bytes).
    pub flexible: Option<Versions>,
    /// A struct field's type name (`TopicProduceData`; empty for other types): the class Kafka
    /// generates for it, named in its reader's errors.
    pub struct_name: &'static str,
    pub fields: &'static [FieldDef],
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Request,
    Response,
    Header,
}

#[derive(Debug)]
pub struct MessageDef {
    /// `ProduceRequest`, `RequestHeader` …
    pub name: &'static str,
    /// −1 for the headers.
    pub api_key: i16,
    pub kind: Kind,
    pub valid: Versions,
    pub flexible: Versions,
    pub fields: &'static [FieldDef],
}

/// Every vendored schema, in file-name order.
pub static MESSAGES: &[MessageDef] = include!(concat!(env!("OUT_DIR"), "/messages.rs"));

/// The schema of `api_key`'s request or response, if vendored.
pub fn find(api_key: i16, kind: Kind) -> Option<&'static MessageDef> {
    MESSAGES.iter().find(|m| m.api_key == api_key && m.kind == kind)
}

pub fn header(kind: Kind) -> &'static MessageDef {
    let name = if kind == Kind::Request { "RequestHeader" } else { "ResponseHeader" };
    MESSAGES.iter().find(|m| m.name == name).unwrap_or(&MESSAGES[0])
}

/// `ApiKeys` names by id, Kafka 4.3.1 (the `apiKey`/`name` of every `*Request.json` in
/// kafka-clients-4.3.1.jar): names what a capture holds even when its schema is not vendored.
pub static API_NAMES: &[&str] = &["Produce", "Fetch", "ListOffsets", "Metadata", "LeaderAndIsr", "StopReplica", "UpdateMetadata", "ControlledShutdown", "OffsetCommit", "OffsetFetch", "FindCoordinator", "JoinGroup", "Heartbeat", "LeaveGroup", "SyncGroup", "DescribeGroups", "ListGroups", "SaslHandshake", "ApiVersions", "CreateTopics", "DeleteTopics", "DeleteRecords", "InitProducerId", "OffsetForLeaderEpoch", "AddPartitionsToTxn", "AddOffsetsToTxn", "EndTxn", "WriteTxnMarkers", "TxnOffsetCommit", "DescribeAcls", "CreateAcls", "DeleteAcls", "DescribeConfigs", "AlterConfigs", "AlterReplicaLogDirs", "DescribeLogDirs", "SaslAuthenticate", "CreatePartitions", "CreateDelegationToken", "RenewDelegationToken", "ExpireDelegationToken", "DescribeDelegationToken", "DeleteGroups", "ElectLeaders", "IncrementalAlterConfigs", "AlterPartitionReassignments", "ListPartitionReassignments", "OffsetDelete", "DescribeClientQuotas", "AlterClientQuotas", "DescribeUserScramCredentials", "AlterUserScramCredentials", "Vote", "BeginQuorumEpoch", "EndQuorumEpoch", "DescribeQuorum", "AlterPartition", "UpdateFeatures", "Envelope", "FetchSnapshot", "DescribeCluster", "DescribeProducers", "BrokerRegistration", "BrokerHeartbeat", "UnregisterBroker", "DescribeTransactions", "ListTransactions", "AllocateProducerIds", "ConsumerGroupHeartbeat", "ConsumerGroupDescribe", "ControllerRegistration", "GetTelemetrySubscriptions", "PushTelemetry", "AssignReplicasToDirs", "ListConfigResources", "DescribeTopicPartitions", "ShareGroupHeartbeat", "ShareGroupDescribe", "ShareFetch", "ShareAcknowledge", "AddRaftVoter", "RemoveRaftVoter", "UpdateRaftVoter", "InitializeShareGroupState", "ReadShareGroupState", "WriteShareGroupState", "DeleteShareGroupState", "ReadShareGroupStateSummary", "StreamsGroupHeartbeat", "StreamsGroupDescribe", "DescribeShareGroupOffsets", "AlterShareGroupOffsets", "DeleteShareGroupOffsets", ];

pub fn api_name(api_key: i16) -> Option<&'static str> {
    usize::try_from(api_key).ok().and_then(|k| API_NAMES.get(k)).copied()
}
