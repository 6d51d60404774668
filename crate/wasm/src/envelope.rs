//! `decodeMessages`: whole requests and responses, [`eoslab_core::message`]. Only in the
//! full package (feature `envelope`): the schema tables and the tree cost more than the inspector's
//! decode-only module can spare, so www/ loads the full package on first use for it.
use eoslab_core::message::{schema, Framing, MessageOptions};
use serde::Deserialize;
use wasm_bindgen::prelude::*;

use crate::{from_js_or_default, input_bytes, js_error, max_decompressed, to_js};

#[wasm_bindgen(typescript_custom_section)]
const TS_MESSAGE_TYPES: &'static str = r#"
/** Options of `decodeMessages`. */
export interface DecodeMessagesOptions {
  /** "auto" (default: per message, the reading that decodes cleanly, size-prefixed first),
   *  "sized" (every message starts with its int32 size, as on a TCP connection) or "unsized". */
  framing?: "auto" | "sized" | "unsized";
  /** Force requests or responses (default: detect). */
  kind?: "request" | "response" | null;
  /** For a response whose request is not in the input: the api key (number or name, "Fetch")
   *  and version it answers. */
  apiKey?: number | string | null;
  apiVersion?: number | null;
  /** For the records fields, as `decode`'s. */
  maxDecompressed?: number;
  spans?: boolean;
}

/** A field of a message (or an array element "[i]") with its byte range [start, end). */
export interface MessageNode {
  name: string;
  /** "int8" | "int16" | "int32" | "int64" | "uint16" | "uint32" | "float64" | "bool" | "uuid" |
   *  "string" | "bytes" | "records" | "struct" | "array" | "taggedFields" */
  type: string;
  start: number;
  end: number;
  /** Integers in decimal (exact), strings as decoded, uuids as Kafka prints them, bytes as hex;
   *  for arrays the element count, for records their size; absent for structs and nulls. */
  value?: string;
  null?: boolean;
  tag?: number;
  /** For records: index into the message's `records`. */
  records?: number;
  children?: MessageNode[];
}

export interface MessagesResult {
  format: string;
  stripped: string[];
  length: number;
  messages: {
    start: number; end: number; size?: number;
    kind: "request" | "response";
    apiKey: number; apiName: string | null; apiVersion: number; headerVersion: number;
    correlationId: number; clientId?: string;
    /** The schema the body was read with ("FetchResponse"), if eoslab has it. */
    schema: string | null;
    /** Responses: "request" (requestIndex) or "options". */
    apiFrom?: "request" | "options"; requestIndex?: number;
    header: MessageNode; body: MessageNode | null;
    records: {
      path: string; start: number; end: number;
      /** The batch decoder's report over the records bytes (offsets relative to `start`). */
      report: DecodeResult;
      /** Fetch responses: how a consumer reads each batch (CompletedFetch). */
      consumer?: { isolationLevel: "READ_COMMITTED" | "READ_UNCOMMITTED"; fromRequest: boolean;
                   batches: { verdict: "delivered" | "aborted" | "control"; firstOffset?: string }[] };
    }[];
  }[];
  errors: { at: number; kind: string; message: string; severity: "error" | "warning" | "info"; field?: string; index?: number }[];
}
"#;

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct MessageOptionsDto {
    framing: Option<String>,
    kind: Option<String>,
    api_key: Option<serde_json_value::KeyOrName>,
    api_version: Option<i16>,
    max_decompressed: Option<f64>,
    spans: Option<bool>,
}

mod serde_json_value {
    use serde::Deserialize;
    /// `apiKey`: a number or an `ApiKeys` name.
    #[derive(Debug, Deserialize)]
    #[serde(untagged)]
    pub enum KeyOrName {
        Key(i16),
        Name(String),
    }
}

impl MessageOptionsDto {
    fn into_core(self) -> Result<MessageOptions, String> {
        let mut o = MessageOptions::default();
        o.framing = match self.framing.as_deref() {
            None | Some("auto") => Framing::Auto,
            Some("sized") => Framing::Sized,
            Some("unsized") => Framing::Unsized,
            Some(f) => return Err(format!("invalid decodeMessages options: framing must be \"auto\", \"sized\" or \"unsized\", got {f:?}")),
        };
        o.kind = match self.kind.as_deref() {
            None => None,
            Some("request") => Some(schema::Kind::Request),
            Some("response") => Some(schema::Kind::Response),
            Some(k) => return Err(format!("invalid decodeMessages options: kind must be \"request\" or \"response\", got {k:?}")),
        };
        o.api_key = match self.api_key {
            None => None,
            Some(serde_json_value::KeyOrName::Key(k)) => Some(k),
            Some(serde_json_value::KeyOrName::Name(n)) => Some(
                schema::API_NAMES
                    .iter()
                    .position(|x| x.eq_ignore_ascii_case(&n))
                    .map(|k| k as i16)
                    .ok_or_else(|| format!("invalid decodeMessages options: unknown api {n:?}"))?,
            ),
        };
        o.api_version = self.api_version;
        o.records.max_decompressed = max_decompressed(self.max_decompressed, "decodeMessages")?;
        if let Some(s) = self.spans {
            o.records.spans = s;
        }
        Ok(o)
    }
}

/// Decodes requests and responses (a TCP payload: several back to back, with or without their
/// size prefixes) from bytes or text. Never throws for malformed data: see `errors`.
#[wasm_bindgen(js_name = decodeMessages, unchecked_return_type = "MessagesResult")]
pub fn decode_messages(
    #[wasm_bindgen(unchecked_param_type = "Uint8Array | string")] input: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "DecodeMessagesOptions")] options: JsValue,
) -> Result<JsValue, JsError> {
    let bytes = input_bytes(&input)?;
    let dto: MessageOptionsDto = from_js_or_default(options, "invalid decodeMessages options")?;
    let opts = dto.into_core().map_err(js_error)?;
    to_js(&eoslab_core::message::decode_messages(&bytes, &opts))
}
