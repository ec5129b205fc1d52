// Preloaded into the server under test by `ALLOC=1 node test/bench/profile.mjs` (node --import): the
// first SIGUSR2 starts V8's sampling heap profiler, counting objects that garbage collections have
// already freed too (a proxy's allocations die young: live objects alone would show almost none);
// the second writes the sampled profile to $ALLOC_OUT.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

const session = new Session();
session.connect();
const post = (method, params) =>
  new Promise((resolve, reject) =>
    session.post(method, params, (err, result) => (err ? reject(err) : resolve(result))),
  );
let sampling = false;
process.on('SIGUSR2', async () => {
  if (!sampling) {
    sampling = true;
    await post('HeapProfiler.enable');
    await post('HeapProfiler.startSampling', {
      samplingInterval: 1024,
      includeObjectsCollectedByMinorGC: true,
      includeObjectsCollectedByMajorGC: true,
    });
    return;
  }
  const { profile } = await post('HeapProfiler.stopSampling');
  writeFileSync(process.env.ALLOC_OUT, JSON.stringify(profile));
});
