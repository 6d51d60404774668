// A minimal Docusaurus 3 site that embeds eoslab with the docusaurus-eoslab plugin
// (plugins/docusaurus-eoslab, a file: dependency in package.json): at `docusaurus build` the
// ```kafka-batch, ```kafka-scenario (or ```kafka-ladder / ```kafka-timeline, which name the view)
// and ```kafka-config fences become the elements, the scenario players drawn from run files made
// then (no WebAssembly downloaded until the reader edits), dist/eoslab is copied into the build
// as eoslab/ and eoslab.js is loaded by every page.
//   node scripts/build-dist.mjs && bash scripts/build-docusaurus.sh /tmp/site
// EOSLAB_BASE_URL: the path the site is served under (default "/"), as the test serves it.
// EOSLAB_DIST: the dist/eoslab folder (default the repository's; scripts/build-docusaurus.sh sets it).
import { eoslabDocusaurus } from "docusaurus-eoslab";

const baseUrl = process.env.EOSLAB_BASE_URL || "/";

const eoslab = eoslabDocusaurus({
  dist: process.env.EOSLAB_DIST || "../../dist/eoslab",
  // The kafka-batch dump on the batches page is left as a code block for eoslab-fences.js.
  fences: true,
});

export default {
  title: "eoslab in Docusaurus",
  url: "http://127.0.0.1",
  baseUrl,
  onBrokenLinks: "throw",
  // The wrong-baseUrl banner is an inline script writing inline styles: off, so the site runs under
  // a strict Content-Security-Policy (tests/browser/embed-docusaurus.test.mjs serves it with one).
  baseUrlIssueBanner: false,
  markdown: { hooks: { onBrokenMarkdownLinks: "throw" } },
  i18n: { defaultLocale: "en", locales: ["en"] },
  plugins: [eoslab.plugin],
  presets: [
    [
      "classic",
      {
        docs: { routeBasePath: "/", sidebarPath: "./sidebars.js", remarkPlugins: [eoslab.remark] },
        blog: false,
        pages: false,
        theme: {},
      },
    ],
  ],
  themeConfig: {
    colorMode: { defaultMode: "light", respectPrefersColorScheme: false },
    navbar: { title: "eoslab" },
  },
};
