'use strict';
// `require('idemgen/runtime')` is @idemgen/runtime's CommonJS build.
module.exports = require('@idemgen/runtime');
