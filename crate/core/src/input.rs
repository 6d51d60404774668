// TEMPORARY compile shim until the input module lands (never committed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format { Binary }
impl Format { pub fn name(self) -> &'static str { "binary" } }
pub struct Detected { pub format: Format, pub bytes: alloc::vec::Vec<u8>, pub stripped: alloc::vec::Vec<alloc::string::String> }
pub struct InputError { pub at: usize, pub line: usize, pub message: alloc::string::String }
pub fn detect(input: &[u8]) -> Result<Detected, InputError> { Ok(Detected{format: Format::Binary, bytes: input.to_vec(), stripped: alloc::vec::Vec::new()}) }
