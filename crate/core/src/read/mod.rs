//! Readers over the wire formats: [`view`] walks the entries of any bytes in place (zero-copy,
//! no report), [`columns`] flattens them for bulk consumers, and [`decode`] builds the
//! byte-exact [`crate::report::Report`] the inspector and the CLI show (its size budget and
//! shared issue helpers in `decode::budget`, magic 0/1 entries in `decode::legacy`).

pub mod columns;
pub mod decode;
pub mod view;
