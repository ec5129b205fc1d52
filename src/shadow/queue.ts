/**
 * The comparison queue: bounded by count and by the bytes of the bodies it holds, run at most
 * `concurrency` at a time, off the client's path. What does not fit is dropped and counted, never waited for.
 */
import type { Metrics } from '../observability/metrics.js';

export interface QueueOptions<T> {
  size: number;
  bytes: number;
  concurrency: number;
  metrics: Metrics;
  /** Runs one job; a rejection is reported to onError, and the queue goes on. */
  run: (job: T) => Promise<void>;
  onError: (err: unknown, job: T) => void;
  /** Called per job dropped (the ledger counts them too). */
  onDrop: () => void;
}

export function createComparisonQueue<T extends { route: string; bytes: number }>(options: QueueOptions<T>) {
  const { metrics } = options;
  const dropped = metrics.counter(
    'paybridge_shadow_dropped_total',
    'Comparisons dropped because the queue was full, by route id and bound (count, bytes).',
    ['route', 'reason'],
  );
  const queue: T[] = [];
  let queuedBytes = 0;
  let running = 0;
  const runningJobs = new Set<T>();
  let idleWaiters: (() => void)[] = [];
  metrics.gauge('paybridge_shadow_queue_depth', 'Comparisons waiting to run.', () => queue.length + running);
  metrics.gauge(
    'paybridge_shadow_queue_bytes',
    'Bytes of bodies held by comparisons waiting to run.',
    () => queuedBytes,
  );

  function drop(route: string, reason: 'count' | 'bytes'): false {
    dropped.inc({ route, reason });
    options.onDrop();
    return false;
  }

  function pump(): void {
    while (running < options.concurrency && queue.length > 0) {
      const job = queue.shift()!;
      queuedBytes -= job.bytes;
      running++;
      runningJobs.add(job);
      Promise.resolve()
        .then(() => options.run(job))
        .catch((err: unknown) => options.onError(err, job))
        .finally(() => {
          running--;
          runningJobs.delete(job);
          pump();
          if (running === 0 && queue.length === 0) {
            const waiters = idleWaiters;
            idleWaiters = [];
            for (const w of waiters) w();
          }
        });
    }
  }

  return {
    /** Whether a job would find room by count now; when not, its drop is counted. */
    admit(this: void, route: string): boolean {
      return queue.length < options.size || drop(route, 'count');
    },
    /** Queues a job; false (and counted) when the queue is full. Never waits. */
    enqueue(this: void, job: T): boolean {
      if (queue.length >= options.size) return drop(job.route, 'count');
      if (queuedBytes + job.bytes > options.bytes) return drop(job.route, 'bytes');
      queue.push(job);
      queuedBytes += job.bytes;
      setImmediate(pump);
      return true;
    },
    /** Resolves once every queued job has run. */
    idle(): Promise<void> {
      if (running === 0 && queue.length === 0) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    /**
     * Lets the jobs run until they are done or `deadline` (epoch ms) comes, whichever is first, and
     * hands back those not finished by then: the ones still waiting (taken off the queue) and the
     * ones still running (their outcome is no longer waited for).
     */
    async settle(deadline: number): Promise<T[]> {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, deadline - Date.now()))));
      await Promise.race([this.idle(), late]);
      clearTimeout(timer);
      const unfinished = [...runningJobs, ...queue.splice(0)];
      queuedBytes = 0;
      return unfinished;
    },
  };
}
