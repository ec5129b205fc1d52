// npm test starts from an empty .test-logs/: the secrets test scans what this run wrote, and only that.
import { rmSync } from 'node:fs';
rmSync(new URL('../.test-logs/', import.meta.url), { recursive: true, force: true });
