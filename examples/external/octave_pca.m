function [Ztrain, Ztest] = octave_pca(Xtrain, ytrain, Xtest, params)
  % PCA in Octave, as a drbench external method (examples/external/octave.yaml):
  % the top params.dim right singular vectors of the centred training points.
  mu = mean(Xtrain, 1);
  if ~params.center
    mu = zeros(1, columns(Xtrain));
  end
  [~, ~, V] = svd(Xtrain - mu, 'econ');
  W = V(:, 1:params.dim);
  % Each component's sign follows its largest loading, so reruns agree.
  [~, at] = max(abs(W), [], 1);
  W = W .* sign(W(sub2ind(size(W), at, 1:columns(W))));
  Ztrain = (Xtrain - mu) * W;
  if isempty(Xtest)
    Ztest = [];
  else
    Ztest = (Xtest - mu) * W;
  end
end
