'use strict';
// `require('idemgen/runtime/tools')` is @idemgen/runtime/tools's CommonJS build.
module.exports = require('@idemgen/runtime/tools');
