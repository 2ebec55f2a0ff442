// Plain JSON as the OpenAPI documents are built: schema fragments, operations, whole documents.
export type OpenApiValue = string | number | boolean | null | OpenApiValue[] | OpenApiObject;

export interface OpenApiObject {
  [key: string]: OpenApiValue;
}

export function isOpenApiObject(value: OpenApiValue | undefined): value is OpenApiObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
