import fc from 'fast-check';
import { BadRequestError } from '../domain/errors/domain-errors';
import { type QueryParams, queryBool, queryInt64, queryOptionalBool, queryValue, queryValues } from './query-parameters';

/** The same query as Fastify parses it and as the authorizer parses the raw URL. */
function bothForms(values: readonly string[] | undefined): [QueryParams, URLSearchParams] {
  const params = new URLSearchParams();
  for (const v of values ?? []) params.append('p', v);
  const routed: QueryParams = values === undefined ? {} : { p: values.length === 1 ? values[0] : [...values] };
  return [routed, params];
}

describe('query parameters as kube-apiserver decodes them', () => {
  describe('Convert_Slice_string_To_bool', () => {
    it.each([
      // given the values, then bool and *bool
      [undefined, false, undefined],
      [['true'], true, true],
      [['True'], true, true],
      [['TRUE'], true, true],
      [['1'], true, true],
      [[''], true, true],
      [['yes'], true, true],
      [['no'], true, true],
      [['off'], true, true],
      [['f'], true, true],
      [['00'], true, true],
      [[' false'], true, true],
      [['0'], false, false],
      [['false'], false, false],
      [['False'], false, false],
      [['FALSE'], false, false],
      [['fAlSe'], false, false],
      // strings.EqualFold folds the long s (U+017F) to s.
      [['falſe'], false, false],
      [['0', '1'], false, false],
      [['1', '0'], true, true],
      [['', 'false'], true, true],
    ])('given %j: bool %s, *bool %s', (values, bool, pointer) => {
      for (const query of bothForms(values)) {
        expect(queryBool(query, 'p')).toBe(bool);
        expect(queryOptionalBool(query, 'p')).toBe(pointer);
      }
    });

    it('reads only the first value, the same from the routed query and from the raw URL', () => {
      fc.assert(
        fc.property(fc.array(fc.oneof(fc.constantFrom('0', 'false', 'False', 'true', '1', ''), fc.string()), { minLength: 1, maxLength: 4 }), (values) => {
          const [routed, raw] = bothForms(values);
          const first = queryBool(bothForms([values[0]])[0], 'p');
          expect(queryBool(routed, 'p')).toBe(first);
          expect(queryBool(raw, 'p')).toBe(first);
          expect(queryOptionalBool(routed, 'p')).toBe(first);
        }),
      );
    });
  });

  describe('Convert_Slice_string_To_(Pointer_)int64', () => {
    it.each([
      [undefined, undefined],
      [['500'], 500],
      [['+5'], 5],
      [['-1'], -1],
      [['0'], 0],
      [['7', 'x'], 7],
    ])('given %j, it is %s', (values, value) => {
      for (const query of bothForms(values)) expect(queryInt64(query, 'p')).toBe(value);
    });

    it.each([
      [[''], 'strconv.ParseInt: parsing "": invalid syntax'],
      [['abc'], 'strconv.ParseInt: parsing "abc": invalid syntax'],
      [['1.5'], 'strconv.ParseInt: parsing "1.5": invalid syntax'],
      [['x', '7'], 'strconv.ParseInt: parsing "x": invalid syntax'],
      [['9223372036854775808'], 'strconv.ParseInt: parsing "9223372036854775808": value out of range'],
    ])('given %j, it is a 400 BadRequest: %s', (values, message) => {
      for (const query of bothForms(values)) {
        const thrown = (() => {
          try {
            queryInt64(query, 'p');
          } catch (error) {
            return error;
          }
        })();
        expect(thrown).toBeInstanceOf(BadRequestError);
        expect((thrown as Error).message).toBe(message);
      }
    });
  });

  describe('Convert_Slice_string_To_string', () => {
    it('gives the first value, and every value in order', () => {
      for (const query of bothForms(['a', 'b'])) {
        expect(queryValue(query, 'p')).toBe('a');
        expect(queryValues(query, 'p')).toEqual(['a', 'b']);
      }
      for (const query of bothForms(undefined)) {
        expect(queryValue(query, 'p')).toBeUndefined();
        expect(queryValues(query, 'p')).toBeUndefined();
      }
    });

    it('reads nothing from the null query Fastify leaves on a request its router refused', () => {
      expect([queryValue(null, 'p'), queryBool(null, 'p'), queryInt64(undefined, 'p')]).toEqual([undefined, false, undefined]);
    });
  });
});
