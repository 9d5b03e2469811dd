'use strict';
// `require('idemgen/runtime/mysql')` is @idemgen/runtime/mysql's CommonJS build.
module.exports = require('@idemgen/runtime/mysql');
