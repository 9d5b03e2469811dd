'use strict';
// `require('idemgen/runtime/conformance')` is @idemgen/runtime/conformance's CommonJS build.
module.exports = require('@idemgen/runtime/conformance');
