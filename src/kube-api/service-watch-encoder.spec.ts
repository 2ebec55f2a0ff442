import type { FastifyRequest } from 'fastify';
import { serviceWatchEncoder } from './service-representation';

const request = (accept?: string) => ({ headers: accept ? { accept } : {}, query: {} }) as unknown as FastifyRequest;
const now = () => new Date('2026-01-02T03:04:05Z');

describe('serviceWatchEncoder', () => {
  // The watch stream shares a change's encoded line among watchers with the same encoder function.
  it('hands every watcher of one representation the same encoder, so a change is encoded once for all', () => {
    expect(serviceWatchEncoder(request(), now)).toBe(serviceWatchEncoder(request('application/json'), now));
    const partial = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1';
    expect(serviceWatchEncoder(request(partial), now)).toBe(serviceWatchEncoder(request(partial), now));
    expect(serviceWatchEncoder(request(partial), now)).not.toBe(serviceWatchEncoder(request(), now));
  });

  it('gives each Table watcher its own encoder: its first event carries the column headers', () => {
    const table = 'application/json;as=Table;g=meta.k8s.io;v=v1';
    expect(serviceWatchEncoder(request(table), now)).not.toBe(serviceWatchEncoder(request(table), now));
  });
});
