// Chromium half of `make bench`: the wasm package's decode, CRC-only pass and model in headless
// Debian Chromium (playwright-core from tests/node_modules; it downloads no browser).
//
//   node benches/js/browser.bench.mjs [--reps N] [--only eoslab-wasm,model] [--out FILE]
//
// Serves pkg/, benches/js/ and benches/target/ from a throw-away HTTP server on 127.0.0.1 (an
// ephemeral port), opens benches/js/page.html in a fresh profile and runs window.runBench.
import { createServer } from 'node:http'
import { createReadStream, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, extname, join, normalize } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const require = createRequire(join(ROOT, 'tests', 'package.json'))
const { chromium } = require('playwright-core')
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium'
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync']
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? process.argv[i + 1] : dflt
}
const reps = Number(arg('reps', 5))
const only = arg('only', '').split(',').filter(Boolean)
const modelN = Number(process.env.BENCH_MODEL_N || 100000)

const MOUNTS = { '/pkg/': join(ROOT, 'pkg'), '/js/': join(ROOT, 'benches', 'js'), '/target/': join(ROOT, 'benches', 'target'), '/www/': join(ROOT, 'www') }
const TYPES = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.html': 'text/html', '.wasm': 'application/wasm', '.json': 'application/json' }
const server = createServer((req, res) => {
  const path = decodeURIComponent(new URL(req.url, 'http://x').pathname)
  const mount = Object.keys(MOUNTS).find(m => path.startsWith(m))
  const file = mount && normalize(join(MOUNTS[mount], path.slice(mount.length)))
  if (!file || !file.startsWith(MOUNTS[mount]) || !statSync(file, { throwIfNoEntry: false })?.isFile()) {
    res.writeHead(404).end()
    return
  }
  res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' })
  createReadStream(file).pipe(res)
})
await new Promise(r => server.listen(0, '127.0.0.1', r))
const base = `http://127.0.0.1:${server.address().port}`

const profile = mkdtempSync(join(tmpdir(), 'eoslab-bench-chromium-'))
let context
try {
  context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS })
  const page = context.pages()[0] ?? (await context.newPage())
  page.on('console', m => process.stderr.write(`${m.text()}\n`))
  page.on('pageerror', e => process.stderr.write(`chromium: page error: ${e.message}\n`))
  await page.goto(`${base}/js/page.html`)
  await page.waitForFunction(() => window.benchReady === true, null, { timeout: 30_000 })
  const result = await page.evaluate(opts => window.runBench(opts), { reps, modelN, only })
  const out = JSON.stringify(result)
  const file = arg('out')
  if (file) writeFileSync(file, out + '\n')
  else process.stdout.write(out + '\n')
} finally {
  await context?.close()
  server.close()
  rmSync(profile, { recursive: true, force: true })
}
