// The size listener the README's "An iframe fallback" gives a host page: each eoslab frame posts
// {type: "eoslab:frame-size", height} when its content changes height; the host sizes that iframe.
window.addEventListener("message", (e) => {
  if (e.data?.type !== "eoslab:frame-size") return;
  for (const f of document.querySelectorAll("iframe")) if (f.contentWindow === e.source) f.style.height = `${e.data.height}px`;
});
for (const f of document.querySelectorAll("iframe")) {
  f.style.width = "100%";
  f.style.border = "0";
}
