"""Cross-checks of the deployment files that a schema cannot see (run by deploy/validate.sh).

Each file may be valid on its own and the set still broken: a selector that matches no pod, a
proxy that routes to a service that does not exist, a variable name with a typo. This script
checks how the files refer to each other, and prints one line per problem.

    python deploy/check_manifests.py     # exit 1 when something is wrong
"""

import pathlib
import re
import sys

import yaml

DEPLOY = pathlib.Path(__file__).resolve().parent
problems = []


def check(ok, message):
    if not ok:
        problems.append(message)


def load_all(path):
    return [doc for doc in yaml.safe_load_all(path.read_text()) if doc]


def readme_variables():
    """The variables of deploy/README.md's configuration table."""
    text = (DEPLOY / "README.md").read_text()
    return set(re.findall(r"^\| `([A-Z][A-Z0-9_]+)` \|", text, re.MULTILINE))


def matches(selector, labels):
    return all(labels.get(k) == v for k, v in selector.items())


def check_kubernetes(known):
    k8s = DEPLOY / "k8s"
    kustomization = yaml.safe_load((k8s / "kustomization.yaml").read_text())
    listed = kustomization["resources"]
    present = sorted(p.name for p in k8s.glob("*.yaml") if p.name != "kustomization.yaml")
    check(sorted(listed) == present,
          f"kustomization resources {sorted(listed)} differ from the files {present}")

    docs = [d for name in listed if (k8s / name).exists() for d in load_all(k8s / name)]
    by_kind = {}
    for doc in docs:
        by_kind.setdefault(doc["kind"], {})[doc["metadata"]["name"]] = doc

    deployment = by_kind["Deployment"]["halma-server"]
    spec = deployment["spec"]
    pod_labels = spec["template"]["metadata"]["labels"]
    check(matches(spec["selector"]["matchLabels"], pod_labels),
          "the Deployment's selector does not match its pods")
    check("replicas" not in spec,
          "the Deployment sets replicas: kubectl apply would undo the autoscaler's choice")
    container = spec["template"]["spec"]["containers"][0]
    ports = {p["name"] for p in container["ports"]}
    for probe, path in (("readinessProbe", "/readyz"), ("livenessProbe", "/healthz")):
        get = container.get(probe, {}).get("httpGet", {})
        check(get.get("path") == path, f"the {probe} does not GET {path}")
        check(get.get("port") in ports, f"the {probe} names an unknown port")
    check("cpu" in container["resources"].get("requests", {}),
          "no CPU request: the autoscaler's utilization target needs one")

    for ref in container.get("envFrom", []):
        name = ref["configMapRef"]["name"]
        check(name in by_kind.get("ConfigMap", {}), f"envFrom names a missing ConfigMap {name}")
    for env in container.get("env", []):
        ref = env.get("valueFrom", {}).get("secretKeyRef")
        if ref and ref["name"] in by_kind.get("Secret", {}):
            secret = by_kind["Secret"][ref["name"]]
            keys = {**secret.get("data", {}), **secret.get("stringData", {})}
            check(ref["key"] in keys, f"Secret {ref['name']} has no key {ref['key']}")
        check(env["name"] in known, f"{env['name']} is not in deploy/README.md's table")
    for name, configmap in by_kind.get("ConfigMap", {}).items():
        for key in configmap["data"]:
            check(key in known, f"ConfigMap {name}: {key} is not in deploy/README.md's table")
            check(key != "REDIS_URL", f"ConfigMap {name} holds REDIS_URL (it belongs in a Secret)")

    service = by_kind["Service"]["halma-server"]
    check(matches(service["spec"]["selector"], pod_labels), "the Service selects no pod")
    check(all(p["targetPort"] in ports for p in service["spec"]["ports"]),
          "the Service targets an unknown port")
    pdb = by_kind["PodDisruptionBudget"]["halma-server"]
    check(matches(pdb["spec"]["selector"]["matchLabels"], pod_labels), "the PDB selects no pod")
    hpa = by_kind["HorizontalPodAutoscaler"]["halma-server"]["spec"]
    target = hpa["scaleTargetRef"]
    check((target["kind"], target["name"]) == ("Deployment", "halma-server"),
          "the autoscaler does not scale the Deployment")
    check(hpa["minReplicas"] > pdb["spec"]["minAvailable"],
          "the autoscaler's minimum leaves the PDB no pod to disrupt")


def check_compose(known):
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    services = compose["services"]
    instances = sorted(n for n, s in services.items()
                       if s.get("build", {}).get("dockerfile") == "deploy/Dockerfile")
    check(len(instances) == 3, f"compose runs {len(instances)} instances, not 3")
    for name in instances:
        env = services[name]["environment"]
        for key in env:
            check(key in known, f"compose {name}: {key} is not in deploy/README.md's table")
        check(env.get("HALMA_TRUST_FORWARDED_FOR") == "true",
              f"compose {name} sits behind the proxy but does not trust X-Forwarded-For")
        host = re.match(r"redis://([^:/]+)", env.get("REDIS_URL", ""))
        check(host and host.group(1) in services, f"compose {name}: REDIS_URL names no service")

    config = (DEPLOY / "haproxy.cfg").read_text()
    backends = re.split(r"^backend ", config, flags=re.MULTILINE)[1:]
    check(len(backends) >= 1, "haproxy.cfg has no backend")
    for backend in backends:
        name = backend.split()[0]
        hosts = sorted(re.findall(r"^\s+server \S+ ([^:\s]+):8080", backend, re.MULTILINE))
        check(hosts == instances, f"haproxy backend {name} routes to {hosts}, not {instances}")
    proxy = services.get("proxy", {})
    check(any(v.startswith("./haproxy.cfg:") for v in proxy.get("volumes", [])),
          "the compose proxy does not mount haproxy.cfg")


def main():
    known = readme_variables()
    check(len(known) > 10, "deploy/README.md's configuration table was not found")
    check_kubernetes(known)
    check_compose(known)
    for problem in problems:
        print(f"check_manifests: {problem}")
    if problems:
        return 1
    print("check_manifests: the Kubernetes manifests, compose.yaml and haproxy.cfg agree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
