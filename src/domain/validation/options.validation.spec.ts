import { type FieldError } from '../errors/field-error';
import { InvalidError } from '../errors/domain-errors';
import { validateDeleteOptions, validateDryRun, validateFieldManager, validateFieldValidation, validatePatchOptions, validatePropagationPolicy, validateWriteOptions } from './options.validation';

const lines = (errs: FieldError[]) => errs.map((e) => `${e.field}: ${e.message}`);

describe('request options validation', () => {
  it.each<[string, FieldError[], string[]]>([
    ['dryRun unset', validateDryRun(undefined), []],
    ['dryRun All', validateDryRun(['All']), []],
    ['dryRun foo', validateDryRun(['foo']), ['dryRun: Unsupported value: []string{"foo"}: supported values: "All"']],
    ['dryRun mixed', validateDryRun(['All', '']), ['dryRun: Unsupported value: []string{"All", ""}: supported values: "All"']],
    ['fieldValidation empty', validateFieldValidation(''), []],
    ['fieldValidation Strict', validateFieldValidation('Strict'), []],
    ['fieldValidation x', validateFieldValidation('x'), ['fieldValidation: Unsupported value: "x": supported values: "", "Ignore", "Strict", "Warn"']],
    ['fieldManager ok', validateFieldManager('kubectl-client-side-apply'), []],
    ['fieldManager 128 bytes', validateFieldManager('m'.repeat(128)), []],
    ['fieldManager 129 bytes', validateFieldManager('m'.repeat(129)), ['fieldManager: Too long: may not be more than 128 bytes']],
    ['fieldManager non-printable (byte position)', validateFieldManager('é\tx'), ['fieldManager: Invalid value: "é\\tx": invalid character U+0009 (at position 2)']],
    // §8 case 73
    ['propagationPolicy Foo', validatePropagationPolicy('Foo'), ['propagationPolicy: Unsupported value: "Foo": supported values: "Foreground", "Background", "Orphan", "nil"']],
    ['propagationPolicy Background', validatePropagationPolicy('Background'), []],
    [
      'orphanDependents with propagationPolicy',
      validateDeleteOptions({ orphanDependents: true, propagationPolicy: 'Background' }),
      ['propagationPolicy: Invalid value: "Background": orphanDependents and deletionPropagation cannot be both set'],
    ],
    [
      'delete options order',
      validateDeleteOptions({ orphanDependents: false, propagationPolicy: 'X', dryRun: ['y'], gracePeriodSeconds: -5 }),
      [
        'propagationPolicy: Invalid value: "X": orphanDependents and deletionPropagation cannot be both set',
        'propagationPolicy: Unsupported value: "X": supported values: "Foreground", "Background", "Orphan", "nil"',
        'dryRun: Unsupported value: []string{"y"}: supported values: "All"',
      ],
    ],
    [
      'create/update options order',
      validateWriteOptions({ fieldManager: 'm'.repeat(129), dryRun: ['x'], fieldValidation: 'y' }),
      [
        'fieldManager: Too long: may not be more than 128 bytes',
        'dryRun: Unsupported value: []string{"x"}: supported values: "All"',
        'fieldValidation: Unsupported value: "y": supported values: "", "Ignore", "Strict", "Warn"',
      ],
    ],
    // §8 case 68
    ['apply without fieldManager', validatePatchOptions({}, true), ['fieldManager: Required value: is required for apply patch']],
    ['force on a merge patch', validatePatchOptions({ force: true }, false), ['force: Forbidden: may not be specified for non-apply patch']],
    ['apply with fieldManager', validatePatchOptions({ fieldManager: 'x', force: true }, true), []],
  ])('%s', (_name, errs, expected) => {
    expect(lines(errs)).toEqual(expected);
  });

  it('renders the §8 case 73 Status through InvalidError', () => {
    const err = new InvalidError('DeleteOptions', '', validateDeleteOptions({ propagationPolicy: 'Foo' }), 'meta.k8s.io');
    expect(err.message).toBe('DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Foo": supported values: "Foreground", "Background", "Orphan", "nil"');
    expect(err.details).toEqual({
      group: 'meta.k8s.io',
      kind: 'DeleteOptions',
      causes: [
        {
          reason: 'FieldValueNotSupported',
          message: 'Unsupported value: "Foo": supported values: "Foreground", "Background", "Orphan", "nil"',
          field: 'propagationPolicy',
        },
      ],
    });
    expect(JSON.stringify(err.details)).toBe(
      '{"group":"meta.k8s.io","kind":"DeleteOptions","causes":[{"reason":"FieldValueNotSupported","message":"Unsupported value: \\"Foo\\": supported values: \\"Foreground\\", \\"Background\\", \\"Orphan\\", \\"nil\\"","field":"propagationPolicy"}]}',
    );
  });
});
