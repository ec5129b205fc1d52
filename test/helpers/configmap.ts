import { existsSync, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A mounted ConfigMap in `dir` as the kubelet writes it (AtomicWriter): the data in a timestamped
 * folder, `..data` linking to it, each key's file linking through `..data`; an update writes a new
 * folder and swaps `..data` in one rename. Returns the function that projects the ConfigMap's data.
 */
export function configMapVolume(dir: string): (data: Record<string, string>) => void {
  let n = 0;
  return (data) => {
    const folder = `..2026_11_27_${String(++n).padStart(4, '0')}`;
    mkdirSync(join(dir, folder));
    for (const [key, text] of Object.entries(data)) writeFileSync(join(dir, folder, key), text);
    symlinkSync(folder, join(dir, '..data_tmp'));
    renameSync(join(dir, '..data_tmp'), join(dir, '..data'));
    if (n > 1) rmSync(join(dir, `..2026_11_27_${String(n - 1).padStart(4, '0')}`), { recursive: true });
    for (const key of Object.keys(data))
      if (!existsSync(join(dir, key))) symlinkSync(join('..data', key), join(dir, key));
  };
}
