// <kafka-batch>'s small formatters: a byte as two hex digits, counts and sizes as the panels write them.
export const hex2 = (b) => (b ?? 0).toString(16).padStart(2, "0");

export const fmtInt = (n) => Number(n).toLocaleString("en-US");
export function fmtBytes(n) {
  if (n < 1024) return `${n} bytes`;
  if (n < 1 << 20) return `${(n / 1024).toFixed(1)} KiB (${fmtInt(n)} bytes)`;
  return `${(n / (1 << 20)).toFixed(1)} MiB (${fmtInt(n)} bytes)`;
}
