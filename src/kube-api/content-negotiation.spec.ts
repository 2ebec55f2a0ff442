import { negotiateFormat } from './content-negotiation';

describe('negotiateFormat', () => {
  it.each([
    ['application/vnd.kubernetes.protobuf, application/json', { protobuf: true }, 'protobuf'],
    ['application/vnd.kubernetes.protobuf, application/json', {}, 'json'],
    ['application/json;q=0.5, application/vnd.kubernetes.protobuf', { protobuf: true }, 'protobuf'],
    ['application/vnd.kubernetes.protobuf;q=0.5, application/yaml', { protobuf: true }, 'yaml'],
    ['application/json;as=Table;g=meta.k8s.io;v=v1, application/json', {}, 'json'],
    ['*/*', { protobuf: true }, 'json'],
    ['', {}, 'json'],
  ])('given Accept %j and an endpoint offering %j, when negotiated, then it answers %s (also the second time)', (accept, options, format) => {
    expect(negotiateFormat(accept, options)).toBe(format);
    expect(negotiateFormat(accept, options)).toBe(format);
  });

  it('given only protobuf accepted, when the endpoint offers no protobuf, then it is 406 listing what it offers, every time', () => {
    for (let i = 0; i < 2; i++) {
      expect(() => negotiateFormat('application/vnd.kubernetes.protobuf', {})).toThrow(expect.objectContaining({ code: 406 }));
    }
    expect(negotiateFormat('application/vnd.kubernetes.protobuf', { protobuf: true })).toBe('protobuf');
  });
});
