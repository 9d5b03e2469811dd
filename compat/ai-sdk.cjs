'use strict';
// `require('idemgen/runtime/ai-sdk')` is @idemgen/runtime/ai-sdk's CommonJS build.
module.exports = require('@idemgen/runtime/ai-sdk');
