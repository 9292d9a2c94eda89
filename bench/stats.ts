import type { Task } from 'tinybench';

/** What every bench table reads off a tinybench task: runs per second and latency in ms. */
export interface TaskStats {
  hz: number;
  mean: number;
  p50: number;
  p99: number;
  samples: number;
}

export function taskStats(task: Task | undefined): TaskStats {
  const r = task?.result;
  const latency = r && 'latency' in r ? r.latency : undefined;
  return {
    hz: r && 'throughput' in r ? r.throughput.mean : 0,
    mean: latency?.mean ?? NaN,
    p50: latency?.p50 ?? NaN,
    p99: latency?.p99 ?? NaN,
    samples: latency?.samplesCount ?? 0,
  };
}
