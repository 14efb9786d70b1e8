import { spawn } from 'node:child_process';

/**
 * An npm script's suite of its own (`test:containers`, `test:browser`, `test:samples`): one line
 * saying why it cannot run here and exit 0 when `reason` is given — what the machine lacks is no
 * failure of the code under test — else vitest with its config, extra arguments passed on, and the
 * suite's wall time at the end.
 */
export function runSuite(script: string, config: string, reason: string | undefined): void {
  if (reason !== undefined) {
    console.log(`${script} skipped: ${reason}`);
    process.exit(0);
  }
  const started = Date.now();
  const vitest = spawn('npx', ['vitest', 'run', '--config', config, ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  vitest.on('exit', (code, signal) => {
    console.log(`${script}: ${((Date.now() - started) / 1000).toFixed(0)} s`);
    process.exit(code ?? (signal ? 1 : 0));
  });
}
