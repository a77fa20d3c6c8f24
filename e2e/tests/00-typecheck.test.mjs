// The web client's JSDoc types check (`tsc --noEmit -p web`, strict).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { E2E_DIR } from '../lib.mjs';

test('web client type-checks with tsc --noEmit (strict, checkJs)', async () => {
  const tsc = join(E2E_DIR, 'node_modules', 'typescript', 'bin', 'tsc');
  const r = spawnSync(process.execPath, [tsc, '--noEmit', '-p', join(E2E_DIR, '..', 'web')], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error('tsc failed:\n' + (r.stdout + r.stderr).slice(0, 3000));
});
