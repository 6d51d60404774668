// A minimal Docusaurus 3 site that embeds eoslab with one `scripts` entry: eoslab-fences.js, which
// registers the elements and turns ```kafka-batch, ```kafka-scenario (or ```kafka-ladder /
// ```kafka-timeline, which name the view) and ```kafka-config fences
// into live widgets (and re-upgrades after Docusaurus' client-side route changes). The eoslab/
// folder is dist/eoslab (make dist) copied into static/ (scripts/build-docusaurus.sh does both):
//   make dist && bash scripts/build-docusaurus.sh /tmp/site
// EOSLAB_BASE_URL: the path the site is served under (default "/"), as the test serves it.
const baseUrl = process.env.EOSLAB_BASE_URL || "/";

export default {
  title: "eoslab in Docusaurus",
  url: "http://127.0.0.1",
  baseUrl,
  onBrokenLinks: "throw",
  markdown: { hooks: { onBrokenMarkdownLinks: "throw" } },
  i18n: { defaultLocale: "en", locales: ["en"] },
  presets: [
    [
      "classic",
      {
        docs: { routeBasePath: "/", sidebarPath: "./sidebars.js" },
        blog: false,
        pages: false,
        theme: {},
      },
    ],
  ],
  // One line: the fences module (it imports eoslab.js, which registers every element).
  scripts: [{ src: `${baseUrl}eoslab/eoslab-fences.js`, type: "module" }],
  themeConfig: {
    colorMode: { defaultMode: "light", respectPrefersColorScheme: false },
    navbar: { title: "eoslab" },
  },
};
