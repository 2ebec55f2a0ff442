import { clientErrorStatus, frameworkErrorStatus } from './framework-errors';

describe('frameworkErrorStatus', () => {
  it('keeps the code of any other framework error, as a Status', () => {
    expect(frameworkErrorStatus({ code: 'FST_ERR_ASYNC_CONSTRAINT', statusCode: 500, message: 'Unexpected error from async constraint' })).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Unexpected error from async constraint',
      reason: 'InternalError',
      code: 500,
    });
    expect(frameworkErrorStatus({ code: 'FST_ERR_SOMETHING', statusCode: 406, message: '' })).toMatchObject({ code: 406, message: 'Not Acceptable' });
    expect(frameworkErrorStatus({ message: 'no code at all' })).toMatchObject({ code: 500, reason: 'InternalError' });
  });
});

describe('clientErrorStatus', () => {
  it('maps what Node’s HTTP parser refuses', () => {
    expect(clientErrorStatus(Object.assign(new Error('x'), { code: 'HPE_HEADER_OVERFLOW' }))).toMatchObject({ code: 431 });
    expect(clientErrorStatus(Object.assign(new Error('x'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }))).toMatchObject({ code: 408, reason: 'Timeout' });
    expect(clientErrorStatus(Object.assign(new Error('x'), { code: 'HPE_INVALID_CHUNK_SIZE' }))).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message: 'the request is not valid HTTP: HPE_INVALID_CHUNK_SIZE',
    });
  });
});
