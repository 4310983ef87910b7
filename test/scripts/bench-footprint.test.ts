/**
 * `footprintOf` (scripts/bench-footprint.ts): Chrome's task-manager figure and the allocators of the extension's
 * processes, read from memory-infra dump events shaped as Chromium 156 writes them (hexadecimal byte counts; one
 * `process_totals` event and one `allocators` event per process).
 */
import { describe, expect, it } from 'vitest';
import { type DumpEvent, footprintOf } from '../../scripts/bench-footprint';

const MiB = 2 ** 20;
const hex = (bytes: number) => bytes.toString(16);
const totals = (pid: number, bytes: number): DumpEvent => ({
  ph: 'v',
  pid,
  args: { dumps: { process_totals: { private_footprint_bytes: hex(bytes) } } },
});
const allocators = (pid: number, sizes: Record<string, { size?: number; effective?: number }>): DumpEvent => ({
  ph: 'v',
  pid,
  args: {
    dumps: {
      allocators: Object.fromEntries(
        Object.entries(sizes).map(([name, s]) => [
          name,
          {
            attrs: {
              ...(s.size !== undefined ? { size: { value: hex(s.size) } } : {}),
              ...(s.effective !== undefined ? { effective_size: { value: hex(s.effective) } } : {}),
            },
          },
        ]),
      ),
    },
  },
});

describe('footprintOf', () => {
  it("sums the extension's processes only, in MB (2^20 bytes) to one decimal", () => {
    const events = [totals(10, 36 * MiB + 0.26 * MiB), totals(11, 10 * MiB), totals(99, 500 * MiB), { ph: 'X', pid: 10 }];
    expect(footprintOf(events, [10, 11]).footprintMB).toBe(46.3);
    expect(footprintOf(events, [12]).footprintMB).toBeNull();
  });

  it('names top-level allocators by effective size (size when there is none), largest first, those under 0.5 MB left out', () => {
    const f = footprintOf(
      [
        allocators(10, {
          malloc: { size: 30 * MiB, effective: 26 * MiB },
          v8: { size: 23 * MiB },
          partition_alloc: { size: 3 * MiB, effective: 2.8 * MiB },
          skia: { size: 0.1 * MiB },
          'malloc/allocated_objects': { size: 21 * MiB },
        }),
        allocators(99, { v8: { size: 400 * MiB } }),
      ],
      [10],
    );
    expect(Object.entries(f.allocatorsMB)).toEqual([
      ['malloc', 26],
      ['v8', 23],
      ['partition_alloc', 2.8],
    ]);
  });

  it('keeps the parts of V8, malloc and PartitionAlloc two levels down, by size, and nothing deeper or of others', () => {
    const f = footprintOf(
      [
        allocators(10, {
          'partition_alloc/allocated_objects': { size: 24 * MiB },
          'partition_alloc/partitions/buffer': { size: 25 * MiB, effective: 1 * MiB },
          'partition_alloc/partitions/buffer/buckets': { size: 25 * MiB },
          'v8/workers/heap': { size: 18.9 * MiB },
          'cc/tile_memory': { size: 4 * MiB },
          'malloc/partitions': { size: 0.2 * MiB },
        }),
      ],
      [10],
    );
    expect(f.partsMB).toEqual({
      'partition_alloc/allocated_objects': 24,
      'partition_alloc/partitions/buffer': 25,
      'v8/workers/heap': 18.9,
    });
  });
});
