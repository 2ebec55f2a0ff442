// responsewriters.InternalError: what kube-apiserver's filters answer when a decision could not be
// made (an authorizer's error): plain text through http.Error, not a Status, with the request URI
// Go-quoted and HTML metacharacters escaped.
import { strconvQuote } from '../domain/codec/go-quote';

export function internalErrorText(requestUri: string, error: string): string {
  return `${`Internal Server Error: ${strconvQuote(requestUri)}: ${error}`.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}\n`;
}
