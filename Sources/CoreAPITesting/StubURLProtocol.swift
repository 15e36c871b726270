import CoreAPI
