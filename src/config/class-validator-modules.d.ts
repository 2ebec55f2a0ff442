// class-validator's index loads every decorator it has, and with IsPhoneNumber all of
// libphonenumber-js: about 3 MB of heap and 10 MB of a server's resident memory, for nothing the
// configuration checks. app-config.ts imports the modules it uses one by one; their types are the
// package's own.
declare module 'class-validator/cjs/decorator/common/IsIn' {
  export { IsIn } from 'class-validator';
}
declare module 'class-validator/cjs/decorator/typechecker/IsInt' {
  export { IsInt } from 'class-validator';
}
declare module 'class-validator/cjs/decorator/typechecker/IsString' {
  export { IsString } from 'class-validator';
}
declare module 'class-validator/cjs/decorator/string/Matches' {
  export { Matches } from 'class-validator';
}
declare module 'class-validator/cjs/decorator/number/Max' {
  export { Max } from 'class-validator';
}
declare module 'class-validator/cjs/decorator/number/Min' {
  export { Min } from 'class-validator';
}
declare module 'class-validator/cjs/decorator/string/MinLength' {
  export { MinLength } from 'class-validator';
}
declare module 'class-validator/cjs/validation/Validator' {
  export { Validator } from 'class-validator';
}
