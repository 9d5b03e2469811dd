'use strict';
// `require('idemgen/runtime/sqlite')` is @idemgen/runtime/sqlite's CommonJS build.
module.exports = require('@idemgen/runtime/sqlite');
