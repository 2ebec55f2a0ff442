// Label selectors: the grammar, validation and error texts of k8s.io/apimachinery
// pkg/labels/selector.go (labels.Parse, NewRequirement, Requirement.Matches) at v0.32.
// On LIST, a parse error becomes a 400 BadRequest whose message is the error text as is
// (handlers/get.go: errors.NewBadRequest(err.Error()) around DecodeParameters).
import { parseGoInt64 } from '../codec/go-parse-int';
import { BadRequestError } from '../errors/domain-errors';
import { aggregateMessage, type FieldError, fieldErrors } from '../errors/field-error';
import { isQualifiedName, isValidLabelValue } from '../validation/name-validation';

export type LabelOperator = '=' | '==' | '!=' | 'in' | 'notin' | 'exists' | '!' | 'gt' | 'lt';

export interface LabelRequirement {
  key: string;
  operator: LabelOperator;
  /** Sorted and de-duplicated (Go's sets.String.List()). */
  values: string[];
}

/** AND of requirements, sorted by key; empty matches everything. */
export interface LabelSelector {
  requirements: LabelRequirement[];
}

enum Token {
  Error,
  EndOfString,
  ClosedPar,
  Comma,
  DoesNotExist,
  DoubleEquals,
  Equals,
  GreaterThan,
  Identifier,
  In,
  LessThan,
  NotEquals,
  NotIn,
  OpenPar,
}

const STRING_TO_TOKEN: Record<string, Token> = {
  ')': Token.ClosedPar,
  ',': Token.Comma,
  '!': Token.DoesNotExist,
  '==': Token.DoubleEquals,
  '=': Token.Equals,
  '>': Token.GreaterThan,
  in: Token.In,
  '<': Token.LessThan,
  '!=': Token.NotEquals,
  notin: Token.NotIn,
  '(': Token.OpenPar,
};

/** The binaryOperators list as printed in "expected: …". */
const BINARY_OPERATORS = ['in', 'notin', '=', '==', '!=', 'gt', 'lt'];

interface Item {
  tok: Token;
  literal: string;
}

function isWhitespace(ch: string): boolean {
  return ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
}

function isSpecialSymbol(ch: string): boolean {
  return ch === '=' || ch === '!' || ch === '(' || ch === ')' || ch === ',' || ch === '>' || ch === '<';
}

/** labels.Lexer; NUL ("\0") reads as end of input, as Go's read() returns 0 there. */
class Lexer {
  private pos = 0;
  constructor(private readonly s: string) {}

  private read(): string {
    let ch = '\0';
    if (this.pos < this.s.length) {
      ch = this.s[this.pos];
      this.pos++;
    }
    return ch;
  }

  private unread(): void {
    this.pos--;
  }

  private scanIDOrKeyword(): Item {
    let buffer = '';
    for (;;) {
      const ch = this.read();
      if (ch === '\0') break;
      if (isSpecialSymbol(ch) || isWhitespace(ch)) {
        this.unread();
        break;
      }
      buffer += ch;
    }
    const tok = Object.prototype.hasOwnProperty.call(STRING_TO_TOKEN, buffer) ? STRING_TO_TOKEN[buffer] : undefined;
    return tok !== undefined ? { tok, literal: buffer } : { tok: Token.Identifier, literal: buffer };
  }

  private scanSpecialSymbol(): Item {
    let last: Item | undefined;
    let buffer = '';
    for (;;) {
      const ch = this.read();
      if (ch === '\0') break;
      if (isSpecialSymbol(ch)) {
        buffer += ch;
        const tok = STRING_TO_TOKEN[buffer];
        if (tok !== undefined) {
          last = { tok, literal: buffer };
        } else if (last) {
          this.unread();
          break;
        }
      } else {
        this.unread();
        break;
      }
    }
    if (!last) return { tok: Token.Error, literal: `error expected: keyword found '${buffer}'` };
    return last;
  }

  lex(): Item {
    let ch = this.read();
    while (isWhitespace(ch)) ch = this.read();
    if (ch === '\0') return { tok: Token.EndOfString, literal: '' };
    this.unread();
    return isSpecialSymbol(ch) ? this.scanSpecialSymbol() : this.scanIDOrKeyword();
  }
}

class ParseError extends Error {}

type Context = 'KeyAndOperator' | 'Values';

/** labels.Parser: recursive descent over the pre-scanned tokens. */
class Parser {
  private readonly items: Item[] = [];
  private position = 0;

  constructor(selector: string) {
    const lexer = new Lexer(selector);
    for (;;) {
      const item = lexer.lex();
      this.items.push(item);
      if (item.tok === Token.EndOfString) break;
    }
  }

  private lookahead(context: Context): Item {
    const { tok, literal } = this.items[this.position];
    if (context === 'Values' && (tok === Token.In || tok === Token.NotIn)) return { tok: Token.Identifier, literal };
    return { tok, literal };
  }

  private consume(context: Context): Item {
    const item = this.lookahead(context);
    this.position++;
    return item;
  }

  parse(): LabelRequirement[] {
    const requirements: LabelRequirement[] = [];
    for (;;) {
      const { tok, literal } = this.lookahead('Values');
      if (tok === Token.Identifier || tok === Token.DoesNotExist) {
        let r: LabelRequirement;
        try {
          r = this.parseRequirement();
        } catch (err) {
          throw new ParseError(`unable to parse requirement: ${(err as Error).message}`);
        }
        requirements.push(r);
        const next = this.consume('Values');
        if (next.tok === Token.EndOfString) return requirements;
        if (next.tok === Token.Comma) {
          const after = this.lookahead('Values');
          if (after.tok !== Token.Identifier && after.tok !== Token.DoesNotExist) {
            throw new ParseError(`found '${after.literal}', expected: identifier after ','`);
          }
        } else {
          throw new ParseError(`found '${next.literal}', expected: ',' or 'end of string'`);
        }
      } else if (tok === Token.EndOfString) {
        return requirements;
      } else {
        throw new ParseError(`found '${literal}', expected: !, identifier, or 'end of string'`);
      }
    }
  }

  private parseRequirement(): LabelRequirement {
    const { key, operator } = this.parseKeyAndInferOperator();
    if (operator === 'exists' || operator === '!') return newRequirement(key, operator, []);
    const op = this.parseOperator();
    const values = op === 'in' || op === 'notin' ? this.parseValues() : this.parseExactValue();
    return newRequirement(key, op, [...values].sort());
  }

  private parseKeyAndInferOperator(): { key: string; operator?: LabelOperator } {
    let operator: LabelOperator | undefined;
    let { tok, literal } = this.consume('Values');
    if (tok === Token.DoesNotExist) {
      operator = '!';
      ({ tok, literal } = this.consume('Values'));
    }
    if (tok !== Token.Identifier) throw new ParseError(`found '${literal}', expected: identifier`);
    const keyErr = validateLabelKey(literal, '<nil>');
    if (keyErr) throw new ParseError(aggregateMessage([keyErr]));
    const next = this.lookahead('Values').tok;
    if ((next === Token.EndOfString || next === Token.Comma) && operator !== '!') operator = 'exists';
    return { key: literal, operator };
  }

  private parseOperator(): LabelOperator {
    const { tok, literal } = this.consume('KeyAndOperator');
    switch (tok) {
      case Token.In:
        return 'in';
      case Token.Equals:
        return '=';
      case Token.DoubleEquals:
        return '==';
      case Token.GreaterThan:
        return 'gt';
      case Token.LessThan:
        return 'lt';
      case Token.NotIn:
        return 'notin';
      case Token.NotEquals:
        return '!=';
      default:
        throw new ParseError(`found '${literal}', expected: ${BINARY_OPERATORS.join(', ')}`);
    }
  }

  private parseValues(): Set<string> {
    let { tok, literal } = this.consume('Values');
    if (tok !== Token.OpenPar) throw new ParseError(`found '${literal}' expected: '('`);
    ({ tok, literal } = this.lookahead('Values'));
    if (tok === Token.Identifier || tok === Token.Comma) {
      const s = this.parseIdentifiersList();
      if (this.consume('Values').tok !== Token.ClosedPar) throw new ParseError(`found '${literal}', expected: ')'`);
      return s;
    }
    if (tok === Token.ClosedPar) {
      this.consume('Values');
      return new Set(['']);
    }
    throw new ParseError(`found '${literal}', expected: ',', ')' or identifier`);
  }

  private parseIdentifiersList(): Set<string> {
    const s = new Set<string>();
    for (;;) {
      const { tok, literal } = this.consume('Values');
      if (tok === Token.Identifier) {
        s.add(literal);
        const next = this.lookahead('Values');
        if (next.tok === Token.Comma) continue;
        if (next.tok === Token.ClosedPar) return s;
        throw new ParseError(`found '${next.literal}', expected: ',' or ')'`);
      } else if (tok === Token.Comma) {
        // "(,", ",)" and ",," stand for empty values.
        if (s.size === 0) s.add('');
        const next = this.lookahead('Values').tok;
        if (next === Token.ClosedPar) {
          s.add('');
          return s;
        }
        if (next === Token.Comma) {
          this.consume('Values');
          s.add('');
        }
      } else {
        throw new ParseError(`found '${literal}', expected: ',', or identifier`);
      }
    }
  }

  private parseExactValue(): Set<string> {
    const next = this.lookahead('Values').tok;
    if (next === Token.EndOfString || next === Token.Comma) return new Set(['']);
    const { tok, literal } = this.consume('Values');
    if (tok === Token.Identifier) return new Set([literal]);
    throw new ParseError(`found '${literal}', expected: identifier`);
  }
}

/** validateLabelKey: one Invalid with IsQualifiedName's messages joined by "; ". */
function validateLabelKey(key: string, path: string): FieldError | undefined {
  const errs = isQualifiedName(key);
  return errs.length ? fieldErrors.invalid(path, key, errs.join('; ')) : undefined;
}

/**
 * NewRequirement with the parser's nil path: value errors land on `values[i][key]`, and the
 * aggregate of all errors is the message.
 */
function newRequirement(key: string, operator: LabelOperator, values: string[]): LabelRequirement {
  const errs: FieldError[] = [];
  const keyErr = validateLabelKey(key, 'key');
  if (keyErr) errs.push(keyErr);
  if (operator === 'gt' || operator === 'lt') {
    if (values.length !== 1) {
      errs.push(fieldErrors.invalid('values', values, "for 'Gt', 'Lt' operators, exactly one value is required"));
    }
    values.forEach((v, i) => {
      if (!parseGoInt64(v).ok) {
        errs.push(fieldErrors.invalid(`values[${i}]`, v, "for 'Gt', 'Lt' operators, the value must be an integer"));
      }
    });
  }
  values.forEach((v, i) => {
    const msgs = isValidLabelValue(v);
    if (msgs.length) errs.push(fieldErrors.invalid(`values[${i}][${key}]`, v, msgs.join('; ')));
  });
  if (errs.length) throw new ParseError(aggregateMessage(errs));
  return { key, operator, values };
}

/**
 * labels.Parse. Throws BadRequestError with the upstream message, e.g.
 * `unable to parse requirement: <nil>: Invalid value: "a b": name part must consist of …`.
 */
export function parseLabelSelector(text: string): LabelSelector {
  try {
    const requirements = new Parser(text).parse();
    // sort.Sort(ByKey): not stable in Go; equal keys keep the order they were written in here.
    requirements.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return { requirements };
  } catch (err) {
    if (err instanceof ParseError) throw new BadRequestError(err.message);
    throw err;
  }
}

/** Requirement.Matches */
export function requirementMatches(r: LabelRequirement, labels: Record<string, string>): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, r.key);
  const value = has ? labels[r.key] : '';
  switch (r.operator) {
    case 'in':
    case '=':
    case '==':
      return has && r.values.includes(value);
    case 'notin':
    case '!=':
      return !has || !r.values.includes(value);
    case 'exists':
      return has;
    case '!':
      return !has;
    case 'gt':
    case 'lt': {
      if (!has || !parseGoInt64(value).ok || r.values.length !== 1 || !parseGoInt64(r.values[0]).ok) return false;
      const lhs = BigInt(value);
      const rhs = BigInt(r.values[0]);
      return r.operator === 'gt' ? lhs > rhs : lhs < rhs;
    }
  }
}

/** Selector.Matches: every requirement holds (an empty selector matches everything). */
export function matchesLabels(selector: LabelSelector, labels: Record<string, string> | undefined): boolean {
  const set = labels ?? {};
  return selector.requirements.every((r) => requirementMatches(r, set));
}

/** Requirement.String / Selector.String, the canonical text form. */
export function formatLabelSelector(selector: LabelSelector): string {
  return selector.requirements
    .map((r) => {
      const prefix = r.operator === '!' ? '!' : '';
      switch (r.operator) {
        case 'exists':
        case '!':
          return `${prefix}${r.key}`;
        case 'in':
        case 'notin':
          return `${r.key} ${r.operator} (${r.values.join(',')})`;
        case 'gt':
          return `${r.key}>${r.values.join(',')}`;
        case 'lt':
          return `${r.key}<${r.values.join(',')}`;
        default:
          return `${r.key}${r.operator}${r.values.join(',')}`;
      }
    })
    .join(',');
}
