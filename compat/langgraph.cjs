'use strict';
module.exports = require('@idemgen/runtime/langgraph');
