//! `readCapture`: a packet capture (pcap, pcapng) read as the Kafka exchanges it holds
//! ([`eoslab_core::capture`]): conversion only. In pkg/eoslab-files.js (feature `capture`) beside
//! `decodeMessages`, which the capture view calls on a message's `bytes` when the reader opens it,
//! so the list itself carries no field trees.
use eoslab_core::capture::{read_capture, About, Connection, Exchange, Problem, Side};
use js_sys::{Array, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;

use crate::{js_error, to_js};

#[wasm_bindgen(typescript_custom_section)]
const TS_CAPTURE_TYPES: &'static str = r#"
/** One message of a captured exchange. */
export interface CapturedMessage {
  /** Capture time of the packet that carried its first byte, microseconds since the epoch. */
  timeUs: number;
  /** Its span in its direction's reassembled TCP stream. */
  streamStart: number; streamEnd: number;
  /** The message's bytes, size prefix included: give them to `decodeMessages` for its fields. */
  bytes: Uint8Array;
  /** What the decoder found wrong in it: Kafka's exception name (`kind`), its byte within the
   *  message, the field being read. */
  problems: { severity: "error" | "warning" | "info"; at: number; kind: string; message: string; field?: string }[];
}

/** A request and its response, paired by correlation id on their connection. */
export interface CapturedExchange {
  connection: number;
  apiKey: number; apiName: string | null; apiVersion: number;
  correlationId: number; clientId: string | null;
  request: CapturedMessage | null; response: CapturedMessage | null;
  /** The response's error codes other than NONE, by Kafka's name, with how often. */
  errors: [string, number][];
  /** The transactional.ids, producer ids and topic-partitions the exchange names. */
  about: { transactionalIds: string[]; producerIds: number[]; partitions: string[] };
}

export interface CaptureResult {
  format: "pcap" | "pcapng" | "";
  length: number; packets: number; linkTypes: string[]; tcpConnections: number;
  connections: { index: number; client: string; broker: string; foundBy: string; sawOpen: boolean;
    bytesToBroker: number; bytesToClient: number;
    gaps: { start: number; end: number; beforePacket: number }[] }[];
  exchanges: CapturedExchange[];
  /** Problems of the file, a packet or a connection (`at`: byte in the file). */
  problems: { severity: "error" | "warning" | "info"; at: number | null; packet: number | null;
    connection: number | null; message: string }[];
}
"#;

#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct CaptureDto<'a> {
    format: &'a str,
    length: usize,
    packets: usize,
    link_types: &'a [String],
    tcp_connections: usize,
    connections: &'a [Connection],
    exchanges: Vec<ExchangeDto<'a>>,
    problems: &'a [Problem],
}

#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct ExchangeDto<'a> {
    connection: usize,
    api_key: i16,
    api_name: Option<&'static str>,
    api_version: i16,
    correlation_id: i32,
    client_id: Option<&'a str>,
    request: Option<SideDto<'a>>,
    response: Option<SideDto<'a>>,
    errors: &'a [(String, usize)],
    about: &'a About,
}

/// A side without its field tree; `bytes` is added as a Uint8Array after conversion.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct SideDto<'a> {
    time_us: f64,
    stream_start: f64,
    stream_end: f64,
    problems: &'a [eoslab_core::message::MessageIssue],
}

impl<'a> From<&'a Side> for SideDto<'a> {
    fn from(s: &'a Side) -> Self {
        SideDto { time_us: s.time_us as f64, stream_start: s.stream_start as f64, stream_end: s.stream_end as f64, problems: &s.problems }
    }
}

impl<'a> From<&'a Exchange> for ExchangeDto<'a> {
    fn from(e: &'a Exchange) -> Self {
        ExchangeDto {
            connection: e.connection,
            api_key: e.api_key,
            api_name: e.api_name,
            api_version: e.api_version,
            correlation_id: e.correlation_id,
            client_id: e.client_id.as_deref(),
            request: e.request.as_ref().map(SideDto::from),
            response: e.response.as_ref().map(SideDto::from),
            errors: &e.errors,
            about: &e.about,
        }
    }
}

/// Reads a whole capture held in memory: its Kafka connections and their exchanges, in capture
/// order, with every problem found (a damaged file still gives what did decode).
#[wasm_bindgen(js_name = readCapture, unchecked_return_type = "CaptureResult")]
pub fn read_capture_js(bytes: &[u8]) -> Result<JsValue, JsError> {
    let rep = read_capture(bytes);
    let dto = CaptureDto {
        format: &rep.format,
        length: rep.length,
        packets: rep.packets,
        link_types: &rep.link_types,
        tcp_connections: rep.tcp_connections,
        connections: &rep.connections,
        exchanges: rep.exchanges.iter().map(ExchangeDto::from).collect(),
        problems: &rep.problems,
    };
    let out = to_js(&dto)?;
    let list: Array = Reflect::get(&out, &"exchanges".into()).map_err(|_| js_error("readCapture: no exchanges"))?.into();
    for (i, e) in rep.exchanges.iter().enumerate() {
        let obj = list.get(i as u32);
        for (key, side) in [("request", &e.request), ("response", &e.response)] {
            if let Some(side) = side {
                let target = Reflect::get(&obj, &key.into()).map_err(|_| js_error("readCapture: no side"))?;
                Reflect::set(&target, &"bytes".into(), &Uint8Array::from(side.bytes.as_slice())).map_err(|_| js_error("readCapture: cannot set bytes"))?;
            }
        }
    }
    Ok(out)
}

/// A capture's modelled requests as a replay (eoslab_core::capture::replay): the script of
/// request lines in capture order and what each captured answer said; the simulator's package,
/// pkg/eoslab.js, judges it. `kafka`: "4.1", "4.3" (default) or "trunk".
#[wasm_bindgen(js_name = captureReplay, unchecked_return_type = "CaptureReplay")]
pub fn capture_replay(bytes: &[u8], name: Option<String>, kafka: Option<String>) -> Result<JsValue, JsError> {
    if let Some(k) = kafka.as_deref().filter(|k| !["4.1", "4.3", "trunk"].contains(k)) {
        return Err(js_error(format!("kafka: {k:?} is not 4.1, 4.3 or trunk")));
    }
    to_js(&eoslab_core::capture::replay::replay(&read_capture(bytes), name.as_deref().unwrap_or("capture"), kafka.as_deref()))
}
