// What a rule resolver reports for `kubectl auth can-i --list` (k8s.io/apiserver authorizer
// ResourceRuleInfo / NonResourceRuleInfo), in the shape of authorization/v1 ResourceRule and
// NonResourceRule.
export interface ResourceRuleInfo {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  resourceNames?: string[];
}

export interface NonResourceRuleInfo {
  verbs: string[];
  nonResourceURLs: string[];
}

export interface RulesForResult {
  resourceRules: ResourceRuleInfo[];
  nonResourceRules: NonResourceRuleInfo[];
  incomplete: boolean;
}
