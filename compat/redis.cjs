'use strict';
// `require('idemgen/runtime/redis')` is @idemgen/runtime/redis's CommonJS build.
module.exports = require('@idemgen/runtime/redis');
