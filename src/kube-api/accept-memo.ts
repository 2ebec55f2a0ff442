// Clients send the same Accept header on every request (kubectl, client-go and the bench each one
// or two texts), and parsing it is pure: its meaning is kept per distinct header text. Bounded,
// so headers made up per request cannot grow it: past the bound it starts over.
const MAX_HEADERS = 256;

export class AcceptMemo<T> {
  private readonly parsed = new Map<string, T>();

  constructor(private readonly parse: (accept: string) => T) {}

  get(accept: string): T {
    const known = this.parsed.get(accept);
    if (known !== undefined || this.parsed.has(accept)) return known as T;
    const value = this.parse(accept);
    if (this.parsed.size >= MAX_HEADERS) this.parsed.clear();
    this.parsed.set(accept, value);
    return value;
  }
}
