import { unsafeBrowserRequestRefusal } from './same-origin-guard';

describe('unsafeBrowserRequestRefusal', () => {
  const host = '127.0.0.1:6443';
  it('lets a same-origin JSON request through', () => {
    expect(unsafeBrowserRequestRefusal({ contentType: 'application/json', secFetchSite: 'same-origin', origin: `https://${host}`, host })).toBeNull();
    expect(unsafeBrowserRequestRefusal({ contentType: 'application/json; charset=utf-8', origin: `https://${host}`, host })).toBeNull();
    expect(unsafeBrowserRequestRefusal({ contentType: 'application/json', secFetchSite: 'same-origin', host })).toBeNull();
  });

  it.each([
    [{ contentType: 'text/plain', secFetchSite: 'same-origin' }, /JSON body/],
    [{ contentType: 'application/x-www-form-urlencoded', secFetchSite: 'same-origin' }, /JSON body/],
    [{ secFetchSite: 'same-origin' }, /JSON body/],
    [{ contentType: 'application/json' }, /no Origin or Sec-Fetch-Site/],
    [{ contentType: 'application/json', secFetchSite: 'cross-site' }, /cross-site/],
    [{ contentType: 'application/json', secFetchSite: 'same-site' }, /cross-site/],
    [{ contentType: 'application/json', origin: 'https://evil.example' }, /cross-origin/],
    [{ contentType: 'application/json', origin: `http://${host}` }, /cross-origin/],
    [{ contentType: 'application/json', secFetchSite: 'same-origin', origin: 'null' }, /cross-origin/],
  ])('refuses %j', (headers, why) => {
    expect(unsafeBrowserRequestRefusal({ host, ...headers })).toMatch(why);
  });
});
