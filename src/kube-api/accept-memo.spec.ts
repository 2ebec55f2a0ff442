import { AcceptMemo } from './accept-memo';

describe('AcceptMemo', () => {
  it('given a header seen before, when it is asked again, then it is not parsed again', () => {
    const parse = jest.fn((accept: string) => accept.length);
    const memo = new AcceptMemo(parse);
    expect([memo.get('application/json'), memo.get('application/json'), memo.get('*/*')]).toEqual([16, 16, 3]);
    expect(parse).toHaveBeenCalledTimes(2);
  });

  it('given a header that means nothing (undefined), when it is asked again, then that answer is kept too', () => {
    const parse = jest.fn((): string | undefined => undefined);
    const memo = new AcceptMemo(parse);
    memo.get('text/html');
    expect(memo.get('text/html')).toBeUndefined();
    expect(parse).toHaveBeenCalledTimes(1);
  });

  it('given 256 distinct headers kept, when another comes, then it starts over instead of growing', () => {
    const parse = jest.fn((accept: string) => accept);
    const memo = new AcceptMemo(parse);
    for (let i = 0; i <= 256; i++) memo.get(`application/x-${i}`);
    expect(parse).toHaveBeenCalledTimes(257);
    // The first was dropped with the rest; the newest is kept.
    memo.get('application/x-0');
    memo.get('application/x-256');
    expect(parse).toHaveBeenCalledTimes(258);
  });
});
