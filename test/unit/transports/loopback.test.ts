import { describeConformance } from '../ipc/conformance-suite'
import { loopbackHarness } from './harness'

describeConformance('loopback', loopbackHarness)
