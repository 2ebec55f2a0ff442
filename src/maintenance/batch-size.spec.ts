import { BatchSize } from './batch-size';

describe('BatchSize', () => {
  it('halves after a slow batch and doubles after a quick one, within bounds', () => {
    const batch = new BatchSize(1000);
    batch.adjust(201);
    expect(batch.rows).toBe(500);
    batch.adjust(120);
    expect(batch.rows).toBe(500);
    batch.adjust(60);
    expect(batch.rows).toBe(500);
    batch.adjust(40);
    expect(batch.rows).toBe(1000);
    for (let i = 0; i < 20; i++) batch.adjust(1000);
    expect(batch.rows).toBe(100);
    for (let i = 0; i < 20; i++) batch.adjust(0);
    expect(batch.rows).toBe(50000);
  });
});
