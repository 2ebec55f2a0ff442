// A tiny observable value with a Preact hook: enough state management for a handful of views.
import { useEffect, useState } from 'preact/hooks';

export interface Signal<T> {
  get(): T;
  set(value: T): void;
  subscribe(listener: (value: T) => void): () => void;
}

export function signal<T>(initial: T): Signal<T> {
  let value = initial;
  const listeners = new Set<(value: T) => void>();
  return {
    get: () => value,
    set(next) {
      value = next;
      for (const l of [...listeners]) l(value);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export function useSignal<T>(s: Signal<T>): T {
  const [value, setValue] = useState(s.get());
  useEffect(() => s.subscribe(setValue), [s]);
  return value;
}
