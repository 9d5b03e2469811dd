// Preload (`node --import ./test/helpers/hide-packages.mjs`) that makes the packages named in
// IDEMGEN_HIDE_PACKAGES (comma-separated) unresolvable, for `import` and `require` alike, with the error
// Node gives for a package that is not installed: the CLI is then run as in an app without that driver.
import Module, { register } from 'node:module';

const hidden = (process.env.IDEMGEN_HIDE_PACKAGES ?? '').split(',').filter(Boolean);
const isHidden = (specifier) => hidden.some((p) => specifier === p || specifier.startsWith(`${p}/`));

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  if (isHidden(request)) {
    const err = new Error(`Cannot find module '${request}'\nRequire stack:\n- ${parent?.filename ?? '?'}`);
    err.code = 'MODULE_NOT_FOUND';
    throw err;
  }
  return resolveFilename.call(this, request, parent, ...rest);
};

const hooks = `
const hidden = ${JSON.stringify(hidden)};
export async function resolve(specifier, context, next) {
  if (hidden.some((p) => specifier === p || specifier.startsWith(p + '/'))) {
    const err = new Error("Cannot find package '" + specifier + "' imported from " + context.parentURL);
    err.code = 'ERR_MODULE_NOT_FOUND';
    throw err;
  }
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
