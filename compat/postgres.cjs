'use strict';
// `require('idemgen/runtime/postgres')` is @idemgen/runtime/postgres's CommonJS build.
module.exports = require('@idemgen/runtime/postgres');
