import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 3100);

export default defineConfig({
  testDir: './tests',
  timeout: 30_000,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync',
      ],
    },
  },
  projects: [
    { name: 'desktop', use: { viewport: { width: 1280, height: 900 } } },
  ],
  webServer: [
    {
      // The scripted OpenAI-compatible endpoint the jobs spec runs against.
      command: `"$LEXPILOT_STUB_BIN" --addr 127.0.0.1:${port + 1} --lexpilot server/data/demo-synthetic.jsonl --plawbench server/data/plawbench/demo.jsonl --dlawbench server/data/dlawbench/demo.jsonl`,
      cwd: '..',
      port: port + 1,
      timeout: 30_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      stderr: 'pipe',
    },
    {
      command: 'bash end2end/serve.sh',
      cwd: '..',
      url: `http://127.0.0.1:${port}/api/stats`,
      // serve.sh runs one Targeted vs Off-target experiment first (about 10 s).
      timeout: 240_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      stderr: 'pipe',
    },
  ],
});
